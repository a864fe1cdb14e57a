// SPDX-License-Identifier: GPL-2.0-or-later
//! types.rs - Rust test target for library types: Box, Rc, Arc followed like pointers, and
//! enums with data (Option, Result, user enums in rustc's tagged and niche layouts). Calls
//! its probed functions a known number of times with known values (tests/targets/README.md).

use std::env;
use std::rc::Rc;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

pub mod zoo {
    use std::rc::Rc;
    use std::sync::Arc;

    pub struct Animal {
        pub name: String,
        pub legs: u32,
        pub weight: u64,
    }

    /// Tagged layout: a discriminant word, then each variant's fields.
    pub enum Shape {
        Circle(u32),
        Rect { w: u32, h: u32 },
        Empty,
    }

    /// Niche layout: the String's capacity niche holds the other variants' tags.
    pub enum Msg {
        Quit,
        Move { x: i32, y: i32 },
        Write(String),
    }

    /// Called twice: "cat" (4 legs, 5 kg) and "bird" (2 legs, 1 kg).
    #[inline(never)]
    pub fn boxed(b: Box<Animal>) -> u64 {
        b.legs as u64 * 100 + b.weight
    }

    /// Called once: an Rc of "dog" (4 legs, 30 kg), an Arc of "ant" (6 legs, 0 kg).
    #[inline(never)]
    pub fn shared(r: &Rc<Animal>, a: &Arc<Animal>) -> u64 {
        r.legs as u64 + a.legs as u64 + r.weight
    }

    /// Called twice: (Some(5), Some(&dog), Ok(77)) then (None, None, Err("no stock")).
    #[inline(never)]
    pub fn maybe(o: &Option<u32>, p: Option<&Animal>, r: &Result<u64, String>) -> u64 {
        let a = o.unwrap_or(1) as u64;
        let b = p.map(|x| x.legs as u64).unwrap_or(2);
        let c = match r {
            Ok(v) => *v,
            Err(e) => e.len() as u64,
        };
        a + b + c
    }

    /// Called three times: Circle(3), Rect { w: 4, h: 5 }, Empty.
    #[inline(never)]
    pub fn shape(s: &Shape) -> u64 {
        match s {
            Shape::Circle(r) => *r as u64 * 3,
            Shape::Rect { w, h } => (*w * *h) as u64,
            Shape::Empty => 0,
        }
    }

    /// Single-variant enums: a tuple variant, a struct variant and a unit one.
    pub enum Wrap {
        Only(u32, i64),
    }

    pub enum Pt {
        At { x: i32, y: i32 },
    }

    pub enum Lone {
        Alone,
    }

    /// Called twice: (Only(7, 8), At { x: 3, y: -4 }, Alone) then (Only(9, 10), At { x: 0,
    /// y: 6 }, Alone).
    #[inline(never)]
    pub fn single(w: &Wrap, p: &Pt, l: &Lone) -> u64 {
        let Wrap::Only(a, b) = w;
        let Pt::At { x, y } = p;
        let Lone::Alone = l;
        (*a as i64 + *b + *x as i64 + *y as i64) as u64
    }

    /// Called three times: Write("hi"), Move { x: -1, y: 2 }, Quit.
    #[inline(never)]
    pub fn msg(m: &Msg) -> u64 {
        match m {
            Msg::Quit => 1,
            Msg::Move { x, y } => (*x + *y) as u64,
            Msg::Write(s) => s.len() as u64,
        }
    }
}

use zoo::{Animal, Lone, Msg, Pt, Shape, Wrap};

fn animal(name: &str, legs: u32, weight: u64) -> Animal {
    Animal { name: String::from(name), legs, weight }
}

fn run_once(sink: &mut u64) {
    *sink += zoo::boxed(Box::new(animal("cat", 4, 5)));
    *sink += zoo::boxed(Box::new(animal("bird", 2, 1)));
    let dog = Rc::new(animal("dog", 4, 30));
    let ant = Arc::new(animal("ant", 6, 0));
    *sink += zoo::shared(&dog, &ant);
    *sink += zoo::maybe(&Some(5), Some(&dog), &Ok(77));
    *sink += zoo::maybe(&None, None, &Err(String::from("no stock")));
    for s in [Shape::Circle(3), Shape::Rect { w: 4, h: 5 }, Shape::Empty] {
        *sink += zoo::shape(&s);
    }
    for m in [Msg::Write(String::from("hi")), Msg::Move { x: -1, y: 2 }, Msg::Quit] {
        *sink += zoo::msg(&m);
    }
    *sink += zoo::single(&Wrap::Only(7, 8), &Pt::At { x: 3, y: -4 }, &Lone::Alone);
    *sink += zoo::single(&Wrap::Only(9, 10), &Pt::At { x: 0, y: 6 }, &Lone::Alone);
}

/// usage: types [REPEAT [INTERVAL_MS]]; REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start.
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
        if interval > 0 {
            thread::sleep(Duration::from_millis(interval));
        }
        i += 1;
    }
    println!("types: sink={}", sink);
}
