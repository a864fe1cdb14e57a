// SPDX-License-Identifier: GPL-2.0-or-later
//! orders.rs - Rust test target: calls its probed functions a known number of times with
//! known values (tests/targets/README.md lists them) and exits. Builds with rustc >= 1.63.

use std::env;
use std::thread;
use std::time::Duration;

pub mod shop {
    /// A C-like enum: shown by its variant name.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub enum Kind {
        Retail,
        Wholesale = 7,
        Online,
    }

    pub struct Item {
        pub name: String,
        pub qty: u32,
    }

    pub struct Order {
        pub id: u64,
        pub name: String,
        pub tags: Vec<String>,
        pub items: Vec<Item>,
        pub kind: Kind,
        pub paid: bool,
        pub weight: f64,
    }

    /// Called twice: with order 11 ("alice") and order 12 ("bob").
    #[inline(never)]
    pub fn add(o: &Order) -> u64 {
        o.id + o.tags.len() as u64 + o.items.iter().map(|i| i.qty as u64).sum::<u64>()
    }

    /// Called once with "hello, rust" (returns 24). Reads the bytes, so that at opt-level 1
    /// the pointer half of `who` is not dropped from the signature (only the length would be).
    #[inline(never)]
    pub fn greet(who: &str) -> usize {
        who.len() * 2 + who.bytes().filter(|&b| b == b'l').count()
    }

    /// Called once with [3, 5, 7, 11].
    #[inline(never)]
    pub fn sum(xs: &[u32]) -> u64 {
        xs.iter().map(|&x| x as u64).sum()
    }

    /// Returns a u64: called once with order 11 (returns 11 * 1000 + 3 = 11003).
    #[inline(never)]
    pub fn total(o: &Order) -> u64 {
        o.id * 1000 + o.items.len() as u64
    }

    /// Returns a &'static str (pointer in RAX, length in RDX): called with Wholesale
    /// ("wholesale") then Online ("online").
    #[inline(never)]
    pub fn kind_name(k: Kind) -> &'static str {
        match k {
            Kind::Retail => "retail",
            Kind::Wholesale => "wholesale",
            Kind::Online => "online",
        }
    }

    /// Returns a reference to a struct: called once with order 11 (its item {"pen", 2}).
    #[inline(never)]
    pub fn first_item(o: &Order) -> &Item {
        &o.items[0]
    }

    /// Returns a pair (u64 in RAX, u32 in EDX): called once with order 11 (11, 3).
    #[inline(never)]
    pub fn span(o: &Order) -> (u64, u32) {
        (o.id, o.items.len() as u32)
    }

    /// Returns a String: called once with order 11 ("alice/11").
    #[inline(never)]
    pub fn label(o: &Order) -> String {
        format!("{}/{}", o.name, o.id)
    }
}

use shop::{Item, Kind, Order};

/// Hides a value from the optimizer, so constant arguments are not folded into the callee
/// (std::hint::black_box is newer than Debian's rustc 1.63).
fn opaque<T: Copy>(x: T) -> T {
    unsafe { std::ptr::read_volatile(&x) }
}

fn run_once(sink: &mut u64) {
    let a = Order {
        id: 11,
        name: String::from("alice"),
        tags: vec![String::from("new"), String::from("priority")],
        items: vec![
            Item { name: String::from("pen"), qty: 2 },
            Item { name: String::from("ink"), qty: 3 },
            Item { name: String::from("pad"), qty: 4 },
        ],
        kind: Kind::Wholesale,
        paid: true,
        weight: 1.25,
    };
    let b = Order {
        id: 12,
        name: String::from("bob"),
        tags: vec![String::from("gift")],
        items: vec![Item { name: String::from("cable"), qty: 6 }],
        kind: Kind::Online,
        paid: false,
        weight: -0.5,
    };
    *sink += shop::add(&a);
    *sink += shop::add(&b);
    *sink += shop::greet(opaque("hello, rust")) as u64;
    *sink += shop::sum(opaque(&[3u32, 5, 7, 11][..]));
    *sink += shop::total(&a);
    *sink += shop::label(&a).len() as u64;
    // uses the bytes, not only the length: at opt-level 1 an unused pointer half of the
    // result is dropped from the function (it then returns the length alone)
    for k in [a.kind, b.kind] {
        *sink += shop::kind_name(opaque(k)).bytes().map(|c| c as u64).sum::<u64>();
    }
    *sink += shop::first_item(&a).qty as u64;
    let (id, n) = shop::span(&a);
    *sink += id + n as u64;
    if a.kind == Kind::Retail || b.paid || a.weight < 0.0 {
        *sink += 1;
    }
}

/// usage: orders [REPEAT [INTERVAL_MS]]; REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start.
fn main() {
    let args: Vec<String> = env::args().collect();
    if let Ok(ms) = env::var("UPFT_TARGET_DELAY_MS") {
        thread::sleep(Duration::from_millis(ms.parse().unwrap_or(0)));
    }
    let repeat: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let interval: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut sink = 0u64;
    let mut i = 0;
    while repeat == 0 || i < repeat {
        run_once(&mut sink);
        sink += shapes::run_all() as u64;
        if interval > 0 {
            thread::sleep(Duration::from_millis(interval));
        }
        i += 1;
    }
    println!("orders: sink={}", sink);
}

/// Trait objects: `&dyn Shape` and `Box<dyn Shape>` of two concrete types (typeid()).
pub mod shapes {
    pub trait Shape {
        fn area(&self) -> f64;
    }

    pub struct Circle {
        pub r: f64,
    }

    pub struct Square {
        pub side: f64,
        pub tag: u32,
    }

    impl Shape for Circle {
        fn area(&self) -> f64 {
            self.r * self.r * 3.0
        }
    }

    impl Shape for Square {
        fn area(&self) -> f64 {
            self.side * self.side + self.tag as f64
        }
    }

    /// Called twice: (circle r 2, boxed square side 3 tag 7), then (square side 1 tag 2,
    /// boxed circle r 0.5).
    #[inline(never)]
    pub fn measure(sh: &dyn Shape, b: Box<dyn Shape>) -> f64 {
        sh.area() + b.area()
    }

    /// Called once: (Rc of a square side 2 tag 1, Arc of a circle r 1).
    #[inline(never)]
    pub fn measure_shared(r: &std::rc::Rc<dyn Shape>, a: std::sync::Arc<dyn Shape>) -> f64 {
        r.area() + a.area()
    }

    pub fn run_all() -> f64 {
        let c = Circle { r: 2.0 };
        let s = Square { side: 1.0, tag: 2 };
        let first = measure(&c, Box::new(Square { side: 3.0, tag: 7 }));
        let rc: std::rc::Rc<dyn Shape> = std::rc::Rc::new(Square { side: 2.0, tag: 1 });
        let arc: std::sync::Arc<dyn Shape> = std::sync::Arc::new(Circle { r: 1.0 });
        first + measure(&s, Box::new(Circle { r: 0.5 })) + measure_shared(&rc, arc)
    }
}
