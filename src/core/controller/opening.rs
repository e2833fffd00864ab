//! The opening's name: asked by the player, looked up at the edge (the
//! runtime holds the classification, read from a file), answered here
//! from the journaled `opening_classified`.

use super::Controller;
use crate::core::event::{Event, Stamped};
use crate::core::opening::{Eco, Family};
use crate::core::said::Said;

impl Controller {
    /// The ply at which the player asked for the opening's name, while its
    /// classification is still to come: the runtime looks the game's
    /// positions up to that ply and answers with `opening_classified`.
    pub fn opening_wanted(&self) -> Option<u32> {
        self.opening_asked
    }

    /// The player asks which opening this is.
    pub(super) fn ask_opening(&mut self) {
        self.opening_asked = Some(self.game.ply());
    }

    /// The classification after `ply` moves (its code and family): said
    /// when it answers the question asked at that ply; any other changes
    /// nothing.
    pub(super) fn opening_classified(
        &mut self,
        t: u64,
        ply: u32,
        (eco, family): (Option<Eco>, Option<Family>),
        out: &mut Vec<Stamped>,
    ) {
        if self.opening_asked != Some(ply) {
            return;
        }
        self.opening_asked = None;
        let family = eco.and(family);
        let say = Said::Opening { eco, family };
        out.push(Stamped {
            t,
            event: Event::Opening {
                ply,
                eco: eco.map(|e| e.to_string()),
                family: family.map(|f| f.to_string()),
                say,
            },
        });
    }
}
