// SPDX-License-Identifier: GPL-2.0-or-later
// sorter.rs - slice::sort_by with a closure that calls area() (tests/e2e/stack-cfi.sh)
use std::hint::black_box;

pub mod shapes {
    #[inline(never)]
    pub fn area(r: &(u32, u32)) -> u32 {
        std::hint::black_box(r.0 * r.1)
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
        let mut v = vec![(3, 3), (1, 2), (2, 2)];
        total += shapes::sort_rects(black_box(&mut v));
    }
    println!("{}", total);
}
