// SPDX-License-Identifier: GPL-2.0-or-later
// sorter.rs - slice::sort_by with a closure that calls area() (tests/e2e/stack-cfi.sh)

/// Hides a value from the optimizer (std::hint::black_box is newer than Debian 12's rustc
/// 1.63, the arm64 root's): a volatile read of it must happen, so it is not folded away.
fn opaque<T: Copy>(x: T) -> T {
    unsafe { std::ptr::read_volatile(&x) }
}

pub mod shapes {
    #[inline(never)]
    pub fn area(r: &(u32, u32)) -> u32 {
        super::opaque(r.0 * r.1)
    }

    #[inline(never)]
    pub fn sort_rects(v: &mut Vec<(u32, u32)>) -> u32 {
        v.sort_by(|a, b| area(a).cmp(&area(b)));
        v[0].0 // not a tail call: sort_rects stays on the stack
    }
}

fn main() {
    let rounds: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut total = 0;
    for _ in 0..rounds {
        let mut v: Vec<(u32, u32)> = vec![(3, 3), (1, 2), (2, 2)];
        total += shapes::sort_rects(unsafe { &mut *opaque(&mut v as *mut _) });
    }
    println!("{}", total);
}
