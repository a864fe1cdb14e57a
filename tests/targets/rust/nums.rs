// SPDX-License-Identifier: GPL-2.0-or-later
//! nums.rs - Rust test target for numbers: 128-bit integers, infinities and NaN, and f64
//! arguments and results that arrive in xmm registers (a gauge whose set() stores the value's
//! bits in an AtomicU64, as Prometheus's client_golang does). tests/targets/README.md lists
//! the calls.

use std::env;
use std::thread;
use std::time::Duration;

pub mod num {
    use std::sync::atomic::{AtomicU64, Ordering};

    pub struct Wide {
        pub s: i128,
        pub u: u128,
        pub inf: f64,
        pub nan: f64,
    }

    pub struct Gauge {
        pub bits: AtomicU64,
        pub name: &'static str,
    }

    #[inline(never)]
    pub fn wide(w: &Wide, a: i128, b: u128) -> u64 {
        (a as u64) ^ (b >> 64) as u64 ^ (w.s as u64) ^ (w.u as u64) ^ w.inf.to_bits() ^ w.nan.to_bits()
    }

    impl Gauge {
        #[inline(never)]
        pub fn set(&self, val: f64) {
            self.bits.store(val.to_bits(), Ordering::SeqCst);
        }

        #[inline(never)]
        pub fn add(&self, val: f64) {
            loop {
                let old = self.bits.load(Ordering::SeqCst);
                let new = (f64::from_bits(old) + val).to_bits();
                if self.bits.compare_exchange(old, new, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
                    return;
                }
            }
        }

        #[inline(never)]
        pub fn value(&self) -> f64 {
            f64::from_bits(self.bits.load(Ordering::SeqCst))
        }
    }

    /// a float that never leaves xmm registers
    #[inline(never)]
    pub fn scale(x: f64, n: u32) -> f64 {
        x * n as f64
    }
}

fn run_once(sink: &mut u64, g: &num::Gauge) {
    let w = num::Wide {
        s: -(1i128 << 100) - 7,
        u: u128::MAX,
        inf: f64::INFINITY,
        nan: f64::NAN,
    };
    *sink ^= num::wide(&w, (1i128 << 100) + 7, 1u128 << 64);
    g.set(42.5);
    g.add(5.0);
    g.add(-7.25);
    *sink ^= g.value() as u64;
    g.set(f64::NEG_INFINITY);
    *sink ^= num::scale(1.5, 3) as u64;
}

fn main() {
    let args: Vec<String> = env::args().collect();
    if let Ok(ms) = env::var("UPFT_TARGET_DELAY_MS") {
        thread::sleep(Duration::from_millis(ms.parse().unwrap_or(0)));
    }
    let repeat: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let interval: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let g = num::Gauge { bits: std::sync::atomic::AtomicU64::new(0), name: "fake_gauge" };
    let mut sink = 0u64;
    let mut i = 0;
    while repeat == 0 || i < repeat {
        run_once(&mut sink, &g);
        if interval > 0 {
            thread::sleep(Duration::from_millis(interval));
        }
        i += 1;
    }
    println!("nums: sink={} gauge={}", sink, g.name);
}
