//! Dice: seeded ChaCha streams keyed by what a roll is for, whose positions are part of the game
//! state, and an injectable queue of rolls for tests.
//!
//! A game's rolls are not one sequence. Each *stream* (the rules name it: `"combat @3"`, the combat
//! rolls of turn 3) is its own ChaCha stream of the game's seed, and the n-th roll of a stream
//! depends only on the seed, the stream's name and n. So a choice that adds a roll to one stream
//! (one more attack on turn 2) leaves every other stream's rolls where they were, and two games of
//! one seed under rule variants that differ a little still roll alike where they play alike:
//! common random numbers, which make paired comparisons of variants far less noisy.
//!
//! **Invariant:** the same seed and the same draws give the same rolls on every machine; the
//! positions (`streams`) are saved, so a loaded game continues every stream where it was.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, VecDeque};

/// The stream of [`Dice::roll`]: rolls that are not the game's (an AI's tie-breaks).
pub const DEFAULT_STREAM: &str = "";

/// The dice of one game.
#[derive(Clone, Debug)]
pub struct Dice {
    seed: u64,
    /// The generator at position 0 of stream 0, cloned and moved for each roll.
    base: ChaCha8Rng,
    /// Rolls drawn from the generator, all streams together.
    drawn: u64,
    /// Rolls drawn so far from each stream that has any.
    streams: BTreeMap<String, u64>,
    injected: VecDeque<u32>,
}

/// A stream name as a ChaCha stream number: FNV-1a, fixed here so that it never changes with a
/// Rust release (std's hashers may).
fn stream_number(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Dice {
    /// Dice with every stream at position 0 of `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice::resume(seed, 0, BTreeMap::new())
    }

    /// Dice of `seed` with `drawn` rolls drawn in all and each stream at its saved position.
    pub fn resume(seed: u64, drawn: u64, streams: BTreeMap<String, u64>) -> Dice {
        Dice {
            seed,
            base: ChaCha8Rng::seed_from_u64(seed),
            drawn,
            streams,
            injected: VecDeque::new(),
        }
    }

    /// Number of rolls drawn from the generator, all streams together.
    pub fn drawn(&self) -> u64 {
        self.drawn
    }

    /// Rolls drawn so far from `stream`.
    pub fn drawn_from(&self, stream: &str) -> u64 {
        self.streams.get(stream).copied().unwrap_or(0)
    }

    /// The position of every stream that has been drawn from.
    pub fn streams(&self) -> &BTreeMap<String, u64> {
        &self.streams
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

    /// The `index`-th word of `stream`: a pure function of the seed, the name and the index.
    fn word(&self, stream: &str, index: u64) -> u32 {
        let mut rng = self.base.clone();
        rng.set_stream(stream_number(stream));
        rng.set_word_pos(u128::from(index));
        rng.next_u32()
    }

    fn roll_random(&mut self, stream: &str, sides: u32) -> u32 {
        let index = self.drawn_from(stream);
        let word = self.word(stream, index);
        self.drawn += 1;
        match self.streams.get_mut(stream) {
            Some(n) => *n += 1,
            None => {
                self.streams.insert(stream.to_string(), 1);
            }
        }
        // one 32-bit word per roll keeps a stream's position a plain count
        (word % sides.max(1)) + 1
    }

    /// 128 bits drawn from the seed for a secret (a commitment's salt), as 32 hex digits: a pure
    /// function of the seed, `name` and `index` that moves no stream and takes no injected roll.
    /// Whoever does not know the seed cannot work it out.
    pub fn salt(&self, name: &str, index: u64) -> String {
        let stream = format!("salt: {name}");
        (0..4)
            .map(|i| format!("{:08x}", self.word(&stream, index * 4 + i)))
            .collect()
    }

    /// One roll of a `sides`-sided die from `stream`: an injected value if any, else the stream.
    pub fn roll_from(&mut self, stream: &str, sides: u32) -> u32 {
        match self.injected.pop_front() {
            Some(v) => v,
            None => self.roll_random(stream, sides),
        }
    }

    /// [`Dice::roll_from`], refusing an injected value that is not a face of the die: `Err` with
    /// the value (taken off the queue) when it is below 1 or above `sides`.
    pub fn roll_checked(&mut self, stream: &str, sides: u32) -> Result<u32, u32> {
        match self.injected.pop_front() {
            Some(v) if (1..=sides).contains(&v) => Ok(v),
            Some(v) => Err(v),
            None => Ok(self.roll_random(stream, sides)),
        }
    }

    /// One roll of a `sides`-sided die from the default stream (see [`DEFAULT_STREAM`]).
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.roll_from(DEFAULT_STREAM, sides)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls_and_resume_position() {
        let mut a = Dice::new(7);
        let first: Vec<u32> = (0..20).map(|_| a.roll_from("combat", 6)).collect();
        let mut b = Dice::new(7);
        let again: Vec<u32> = (0..20).map(|_| b.roll_from("combat", 6)).collect();
        assert_eq!(first, again);
        assert!(first.iter().all(|r| (1..=6).contains(r)));
        assert!(first.iter().any(|r| *r != first[0]), "not a constant");
        let mut c = Dice::resume(7, 10, [("combat".to_string(), 10)].into());
        let tail: Vec<u32> = (0..10).map(|_| c.roll_from("combat", 6)).collect();
        assert_eq!(tail, first[10..]);
    }

    #[test]
    fn a_stream_rolls_the_same_whatever_other_streams_drew() {
        let mut quiet = Dice::new(3);
        let alone: Vec<u32> = (0..10).map(|_| quiet.roll_from("weather", 6)).collect();
        let mut busy = Dice::new(3);
        let mut mixed = Vec::new();
        for i in 0..10 {
            for _ in 0..i {
                busy.roll_from("combat", 6);
            }
            mixed.push(busy.roll_from("weather", 6));
        }
        assert_eq!(alone, mixed);
        assert_eq!(busy.drawn(), 10 + 45);
        assert_eq!(busy.drawn_from("combat"), 45);
    }

    #[test]
    fn streams_differ_from_each_other_and_across_seeds() {
        let rolls = |seed: u64, stream: &str| -> Vec<u32> {
            let mut d = Dice::new(seed);
            (0..32).map(|_| d.roll_from(stream, 6)).collect()
        };
        assert_ne!(rolls(1, "combat"), rolls(1, "weather"));
        assert_ne!(rolls(1, "combat"), rolls(2, "combat"));
    }

    #[test]
    fn a_salt_depends_on_seed_name_and_index_and_moves_nothing() {
        let d = Dice::new(9);
        let a = d.salt("orders", 0);
        assert_eq!(a.len(), 32);
        assert_eq!(a, Dice::new(9).salt("orders", 0));
        assert_ne!(a, d.salt("orders", 1));
        assert_ne!(a, d.salt("other", 0));
        assert_ne!(a, Dice::new(10).salt("orders", 0));
        assert_eq!(d.drawn(), 0);
    }

    #[test]
    fn an_injected_roll_that_is_not_a_face_of_the_die_is_refused() {
        let mut d = Dice::new(1);
        d.inject([0, 7, 6]);
        assert_eq!(d.roll_checked("combat", 6), Err(0));
        assert_eq!(d.roll_checked("combat", 6), Err(7));
        assert_eq!(d.roll_checked("combat", 6), Ok(6));
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
