//! The speech queue's rules: one utterance at a time, and what interrupts
//! or replaces what. Pure: the speaker thread asks it what to do.
//!
//! - A move (and other urgent game talk) interrupts non-urgent talk that is
//!   playing and drops queued non-urgent talk: a new move never waits
//!   behind stale talk, and it pre-empts a queued time readout. Urgent talk
//!   is never dropped and is spoken in order.
//! - New board guidance replaces older board guidance, playing or queued.
//! - An answer to a question interrupts whatever is playing and goes first;
//!   it replaces an older queued answer and a queued time readout.
//! - A time readout replaces an older queued one and waits its turn.
//! - Anything else waits its turn.

use std::collections::VecDeque;

use super::utterance::{Kind, Utterance};

#[derive(Debug, Default)]
pub struct Queue {
    pending: VecDeque<Utterance>,
}

impl Queue {
    pub fn new() -> Queue {
        Queue::default()
    }

    /// Adds `u`. `playing` is the kind of the utterance now being spoken,
    /// if any; the answer is whether that one must be stopped.
    pub fn push(&mut self, u: Utterance, playing: Option<Kind>) -> bool {
        let kind = u.kind;
        match kind {
            Kind::Move | Kind::Game | Kind::Board => {
                self.pending
                    .retain(|q| q.kind.urgent() && !(kind == Kind::Board && q.kind == Kind::Board));
                self.pending.push_back(u);
                matches!(playing, Some(p) if !p.urgent() || (kind == Kind::Board && p == Kind::Board))
            }
            Kind::Answer => {
                self.pending
                    .retain(|q| !matches!(q.kind, Kind::Answer | Kind::Time));
                self.pending.push_front(u);
                playing.is_some()
            }
            Kind::Time => {
                self.pending.retain(|q| q.kind != Kind::Time);
                self.pending.push_back(u);
                false
            }
            Kind::Notice => {
                self.pending.push_back(u);
                false
            }
        }
    }

    /// The next utterance to speak.
    pub fn pop(&mut self) -> Option<Utterance> {
        self.pending.pop_front()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(kind: Kind, text: &str) -> Utterance {
        Utterance::words(kind, text)
    }

    fn texts(q: &mut Queue) -> Vec<String> {
        std::iter::from_fn(|| q.pop()).map(|u| u.text).collect()
    }

    #[test]
    fn a_move_pre_empts_a_queued_time_readout() {
        let mut q = Queue::new();
        assert!(!q.push(u(Kind::Time, "Weiß fünf Minuten"), Some(Kind::Move)));
        assert!(!q.push(u(Kind::Move, "Springer Felix drei"), Some(Kind::Move)));
        assert_eq!(texts(&mut q), ["Springer Felix drei"]);
    }

    #[test]
    fn a_new_move_interrupts_stale_talk_and_drops_what_is_queued() {
        let mut q = Queue::new();
        q.push(u(Kind::Notice, "Weiß bietet Remis an."), Some(Kind::Answer));
        q.push(u(Kind::Answer, "Reihe eins: ..."), Some(Kind::Answer));
        let interrupt = q.push(u(Kind::Move, "Bauer Eva vier"), Some(Kind::Answer));
        assert!(
            interrupt,
            "a position readout playing is stopped for a move"
        );
        assert_eq!(texts(&mut q), ["Bauer Eva vier"]);
    }

    #[test]
    fn moves_never_interrupt_or_drop_each_other() {
        let mut q = Queue::new();
        assert!(!q.push(u(Kind::Move, "Bauer Eva vier"), Some(Kind::Move)));
        assert!(!q.push(u(Kind::Move, "Bauer Eva fünf"), Some(Kind::Move)));
        assert!(!q.push(u(Kind::Game, "Schachmatt."), Some(Kind::Move)));
        assert_eq!(
            texts(&mut q),
            ["Bauer Eva vier", "Bauer Eva fünf", "Schachmatt."]
        );
    }

    #[test]
    fn a_question_interrupts_anything_and_goes_first() {
        let mut q = Queue::new();
        q.push(u(Kind::Move, "Bauer Eva fünf"), Some(Kind::Move));
        q.push(u(Kind::Answer, "alte Antwort"), Some(Kind::Move));
        q.push(u(Kind::Time, "Zeit"), Some(Kind::Answer));
        let interrupt = q.push(u(Kind::Answer, "1. Weiß: Bauer Eva vier"), Some(Kind::Move));
        assert!(interrupt);
        assert_eq!(texts(&mut q), ["1. Weiß: Bauer Eva vier", "Bauer Eva fünf"]);
    }

    #[test]
    fn newer_board_guidance_replaces_older() {
        let mut q = Queue::new();
        q.push(u(Kind::Board, "alt"), Some(Kind::Move));
        let interrupt = q.push(u(Kind::Board, "neu"), Some(Kind::Board));
        assert!(interrupt, "guidance playing is replaced");
        assert_eq!(texts(&mut q), ["neu"]);
    }

    #[test]
    fn time_readouts_replace_each_other_and_never_interrupt() {
        let mut q = Queue::new();
        assert!(!q.push(u(Kind::Time, "alt"), Some(Kind::Notice)));
        assert!(!q.push(u(Kind::Time, "neu"), None));
        assert_eq!(texts(&mut q), ["neu"]);
    }

    #[test]
    fn nothing_playing_means_nothing_to_interrupt_and_a_move_outranks_an_answer_not_begun() {
        let mut q = Queue::new();
        assert!(!q.push(u(Kind::Answer, "Zug 3"), None));
        assert!(!q.push(u(Kind::Move, "Bauer Eva vier"), None));
        assert_eq!(texts(&mut q), ["Bauer Eva vier"]);
    }
}
