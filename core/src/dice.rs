//! Dice: a seeded ChaCha generator whose position is part of the game state, and an injectable
//! queue of rolls for tests.
//!
//! **Invariant:** the same seed and the same draws give the same rolls on every machine; the
//! position (`drawn`) is saved, so a loaded game continues the same sequence.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// The dice of one game.
#[derive(Clone, Debug)]
pub struct Dice {
    seed: u64,
    drawn: u64,
    rng: ChaCha8Rng,
    injected: VecDeque<u32>,
}

impl Dice {
    /// Dice at position 0 of `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice {
            seed,
            drawn: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            injected: VecDeque::new(),
        }
    }

    /// Dice of `seed` after `drawn` rolls.
    pub fn at(seed: u64, drawn: u64) -> Dice {
        let mut d = Dice::new(seed);
        while d.drawn < drawn {
            d.roll_random(6);
        }
        d
    }

    /// Number of rolls drawn from the generator.
    pub fn drawn(&self) -> u64 {
        self.drawn
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Queues rolls that the next calls return instead of random ones (tests, replays of a
    /// face-to-face game).
    pub fn inject(&mut self, rolls: impl IntoIterator<Item = u32>) {
        self.injected.extend(rolls);
    }

    /// Rolls still injected.
    pub fn injected_left(&self) -> usize {
        self.injected.len()
    }

    fn roll_random(&mut self, sides: u32) -> u32 {
        self.drawn += 1;
        // one 32-bit word per roll keeps the position a plain count
        let word: u32 = self.rng.random();
        (word % sides.max(1)) + 1
    }

    /// One roll of a `sides`-sided die: an injected value if any, else the generator.
    pub fn roll(&mut self, sides: u32) -> u32 {
        match self.injected.pop_front() {
            Some(v) => v,
            None => self.roll_random(sides),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls_and_resume_position() {
        let mut a = Dice::new(7);
        let first: Vec<u32> = (0..20).map(|_| a.roll(6)).collect();
        let mut b = Dice::new(7);
        let again: Vec<u32> = (0..20).map(|_| b.roll(6)).collect();
        assert_eq!(first, again);
        assert!(first.iter().all(|r| (1..=6).contains(r)));
        let mut c = Dice::at(7, 10);
        let tail: Vec<u32> = (0..10).map(|_| c.roll(6)).collect();
        assert_eq!(tail, first[10..]);
    }

    #[test]
    fn injected_rolls_come_first_and_do_not_move_the_generator() {
        let mut d = Dice::new(1);
        d.inject([6, 6]);
        assert_eq!((d.roll(6), d.roll(6)), (6, 6));
        assert_eq!(d.drawn(), 0);
        let mut fresh = Dice::new(1);
        assert_eq!(d.roll(6), fresh.roll(6));
    }
}
