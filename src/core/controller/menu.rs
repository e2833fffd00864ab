//! The spoken menu's steps, as the controller takes them: what the menu
//! says goes out as `menu` events; choices saved go out as a `choices`
//! event and wait for the next game, which begins at once when no game is
//! under way, or when the player asks for it.

use super::*;
use crate::core::input::MenuStep;
use crate::core::menu::Outcome;
use crate::core::said::Said;
use crate::core::settings::Choices;

impl Controller {
    /// A game has begun (a move was made) and has not ended.
    fn under_way(&self) -> bool {
        self.game.ply() > 0 && !self.game.is_over() && !self.new_game_given
    }

    pub(super) fn menu_step(&mut self, t: u64, step: MenuStep, out: &mut Vec<Stamped>) {
        if !self.menu.is_open() && self.online_choice.is_some() && step != MenuStep::Open {
            self.choose_online(t, step, out);
            return;
        }
        let under_way = self.under_way();
        let practice = self.engine_color().is_some() || self.review_now().is_some();
        match self.menu.step(step, &self.chosen, (under_way, practice)) {
            Outcome::Nothing => {}
            Outcome::Say(say) => out.push(Stamped {
                t,
                event: Event::Menu {
                    say: Said::Menu(say),
                },
            }),
            Outcome::Saved { choices, now, say } => {
                out.push(Stamped {
                    t,
                    event: choices_event(&choices, now, Said::Menu(say)),
                });
                self.chosen = choices;
                if now {
                    self.new_game(t, out);
                }
            }
            Outcome::BeginNow => self.new_game(t, out),
            // A practice question selected: asked as its key asks it.
            Outcome::Ask(act) => {
                use crate::core::menu::PracticeAct;
                let input = match act {
                    PracticeAct::Hint => Input::Hint,
                    PracticeAct::Evaluation => Input::Evaluation(None),
                    PracticeAct::TakeBack => Input::PracticeTakeBack,
                    PracticeAct::Review => Input::Review,
                    PracticeAct::Material => Input::Material,
                    PracticeAct::Threat => Input::Threat,
                    PracticeAct::Opening => Input::Opening,
                };
                self.input(t, input, out);
            }
        }
        // A review judged whole while the menu was open begins now that
        // it is closed (a question asked on closing it may have begun it
        // already; a new game begun on closing it takes it along).
        if self.practice.review_held && !self.menu.is_open() && !self.new_game_given {
            self.review_begins(t, out);
        }
    }
}

/// The `choices` event: what was saved, as the trace format writes it.
fn choices_event(c: &Choices, now: bool, say: Said) -> Event {
    let crate::core::settings::Written {
        opponent,
        step,
        elo,
        level,
    } = c.opponent.written();
    let way = match &c.opponent {
        crate::core::settings::Opponent::Lichess(way) => Some(way),
        _ => None,
    };
    Event::Choices {
        opponent,
        step,
        elo,
        level,
        find: way.map(|w| w.find()),
        friend: way.and_then(|w| match w {
            crate::core::settings::OnlineWay::Friend { name, .. } => Some(name.clone()),
            _ => None,
        }),
        rated: way.map(|w| w.rated()),
        time_control: c.control.as_ref().map(|c| c.to_pgn()),
        color: Side(c.color),
        rate: c.rate,
        volume: c.volume,
        language: c.language.clone(),
        now,
        say,
    }
}
