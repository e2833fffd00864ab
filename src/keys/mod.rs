//! The keys: debounced presses, long presses, and the keypad's meaning.
//!
//! Up to 16 keys are read as one 16-bit word (bit i = key i, 1 = pressed),
//! from GPIO pins ([`GpioButtons`]) or from the serial scanner's button
//! bits. [`ButtonDebouncer`] turns words sampled at the scan rate into
//! presses: a short press is reported when the key is let go, a long press
//! as soon as it has been held long enough (and then nothing on release).
//! [`Keypad`] gives each press its meaning from the configuration and
//! turns it into the same [`Input`]s a trace's `input` lines carry.
//! [`section`] is the configuration's `[buttons]`.

pub mod section;

pub use section::{ButtonsConfig, KeyConfig, PlayerColor};

use embedded_hal::digital::InputPin;
use shakmaty::{Color, File, Rank, Role, Square};

use crate::core::Input;

/// How a key was pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    Short(u8),
    Long(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ButtonTiming {
    /// A key's state counts once it has held this long (ms).
    pub debounce_ms: u64,
    /// Held this long, a press is a long press (ms).
    pub long_press_ms: u64,
}

impl Default for ButtonTiming {
    fn default() -> ButtonTiming {
        ButtonTiming {
            debounce_ms: 20,
            long_press_ms: 800,
        }
    }
}

/// Debounces up to 16 keys. Pure: time is passed in.
#[derive(Debug, Clone)]
pub struct ButtonDebouncer {
    timing: ButtonTiming,
    /// The debounced state.
    stable: u16,
    /// The last raw word and since when each bit has had its value.
    raw: u16,
    since: [u64; 16],
    /// When each held key went down (debounced).
    down_at: [u64; 16],
    /// Keys whose long press has been reported in this hold.
    long_done: u16,
}

impl ButtonDebouncer {
    pub fn new(timing: ButtonTiming) -> ButtonDebouncer {
        ButtonDebouncer {
            timing,
            stable: 0,
            raw: 0,
            since: [0; 16],
            down_at: [0; 16],
            long_done: 0,
        }
    }

    /// A sample of the keys at time `t`; the presses it completes.
    pub fn sample(&mut self, t: u64, word: u16, out: &mut Vec<Press>) {
        for key in 0..16u8 {
            let bit = 1u16 << key;
            let i = key as usize;
            if (word ^ self.raw) & bit != 0 {
                self.since[i] = t;
            }
            let settled = t.saturating_sub(self.since[i]) >= self.timing.debounce_ms;
            let now_down = word & bit != 0;
            let was_down = self.stable & bit != 0;
            if settled && now_down != was_down {
                if now_down {
                    self.stable |= bit;
                    self.down_at[i] = self.since[i];
                    self.long_done &= !bit;
                } else {
                    self.stable &= !bit;
                    if self.long_done & bit == 0 {
                        out.push(Press::Short(key));
                    }
                }
            }
            if self.stable & bit != 0
                && self.long_done & bit == 0
                && t.saturating_sub(self.down_at[i]) >= self.timing.long_press_ms
            {
                self.long_done |= bit;
                out.push(Press::Long(key));
            }
        }
        self.raw = word;
    }
}

/// Reads buttons on GPIO pins (to ground, with pull-ups: low = pressed).
pub struct GpioButtons<I> {
    /// Each pin with the key number it is.
    pins: Vec<(u8, I)>,
}

impl<I: InputPin> GpioButtons<I> {
    /// Each pin with its key number (0–15).
    pub fn new(pins: Vec<(u8, I)>) -> GpioButtons<I> {
        GpioButtons { pins }
    }

    /// The keys as a word; a pin that cannot be read counts as not pressed.
    pub fn read(&mut self) -> u16 {
        let mut word = 0;
        for (key, pin) in &mut self.pins {
            if *key < 16 && pin.is_low().unwrap_or(false) {
                word |= 1 << *key;
            }
        }
        word
    }
}

/// Where the keys are read from: GPIO pins and the scanner's button bits.
pub struct KeySource {
    gpio: Option<Box<dyn FnMut() -> u16>>,
    /// (key number, scanner bit)
    scanner_bits: Vec<(u8, u8)>,
}

impl KeySource {
    /// Whether keys are read from pins now (GPIO buttons), not only from
    /// the board's source.
    pub fn reads_pins(&self) -> bool {
        self.gpio.is_some()
    }

    /// No keys.
    pub fn none() -> KeySource {
        KeySource {
            gpio: None,
            scanner_bits: Vec::new(),
        }
    }

    pub fn new(gpio: Option<Box<dyn FnMut() -> u16>>, scanner_bits: Vec<(u8, u8)>) -> KeySource {
        KeySource { gpio, scanner_bits }
    }

    /// The keys now; `scanner_buttons` are the bits of the scan just read.
    pub fn read(&mut self, scanner_buttons: Option<u16>) -> u16 {
        let word = self.gpio.as_mut().map_or(0, |read| read());
        word | scanner_buttons.map_or(0, |bits| self.scanner_keys(bits))
    }

    /// The keys the scanner's button bits `bits` stand for.
    pub fn scanner_keys(&self, bits: u16) -> u16 {
        self.scanner_bits
            .iter()
            .filter(|(_, bit)| bits & (1 << bit) != 0)
            .fold(0, |word, (key, _)| word | (1 << key))
    }
}

/// What a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Say the last move again.
    Repeat,
    Times,
    Position,
    MoveNumber,
    /// J'adoube: the keypad owner adjusts pieces (in his turn only).
    Adjust,
    DrawOffer,
    /// The keypad owner declines the opponent's draw offer (9.1b).
    DrawDecline,
    DrawClaim,
    /// The player claims that the opponent's flag fell (A4d); online, that
    /// the opponent who left has lost.
    FlagClaim,
    Resign,
    /// The opponent's (sighted player's) clock button.
    Clock,
    /// The keypad owner's own clock press.
    OwnClock,
    /// The promotion piece: queen, rook, bishop, knight in turn.
    PromoteNext,
    Promote(Role),
    /// Say a square: followed by two digit keys, file then rank.
    Square,
    /// Read a rank: followed by a digit key.
    Rank,
    /// Read a file: followed by a digit key (1 = a-file).
    File,
    /// A digit 1–8, for the three above.
    Digit(u8),
    /// Start the clocks again (after pegboard restarted on a game, or a
    /// pause).
    Resume,
    /// A new game; one under way is given up only on a second press.
    NewGame,
    /// Say the move to make on one's own board (two boards, E2.7).
    ToReplicate,
    /// Say what differs between one's own board and the game.
    Differences,
    /// Relay a move made on a wooden board (the assistant's keypad,
    /// E2.9a): followed by four digit keys, from-file, from-rank, to-file,
    /// to-rank. A promotion becomes the piece last chosen with `promote`
    /// (a queen if none).
    Relay,
    /// Practice against the engine: its best move for the player.
    Hint,
    /// Practice: who stands better, in words.
    Evaluation,
    /// Practice: take back the player's last move and the engine's reply.
    TakeBack,
    /// After a game against the engine: the spoken review.
    Review,
    /// Say the material balance: who has what more.
    Material,
    /// Call the arbiter (6.12): the blind player cannot look round for
    /// him; the console and the mirror show the call.
    CallArbiter,
    /// Practice: what the engine threatens.
    Threat,
    /// Name the opening played.
    Opening,
    /// Say the console's secret (or PIN) aloud, for the player to give to
    /// his assistant. It goes to the voices only: no event, no journal.
    ConsoleToken,
    /// Open the spoken menu (and, in it, leave it without saving): the
    /// opponent, the time control, the colour, the voice and the language
    /// of the next game, chosen with the keys whose `menu` role is next,
    /// select and back.
    Menu,
}

impl Action {
    /// Whether the action begins a digit entry (the digits that follow
    /// finish it).
    pub fn begins_entry(self) -> bool {
        matches!(
            self,
            Action::Square
                | Action::Rank
                | Action::File
                | Action::Relay
                | Action::Digit(_)
                | Action::ConsoleToken
        )
    }
}

impl Action {
    /// The names used in the configuration file.
    pub const NAMES: &'static str = "repeat, times, position, move_number, adjust, draw_offer, draw_decline, draw_claim, flag_claim, resign, clock, own_clock, promote, promote_queen, promote_rook, promote_bishop, promote_knight, square, rank, file, resume, new_game, to_replicate, differences, relay, console_token, hint, evaluation, takeback, review, material, threat, opening, menu, digit1 … digit8";

    pub(crate) fn parse(name: &str) -> Result<Action, String> {
        Ok(match name {
            "repeat" => Action::Repeat,
            "times" => Action::Times,
            "position" => Action::Position,
            "move_number" => Action::MoveNumber,
            "adjust" => Action::Adjust,
            "draw_offer" => Action::DrawOffer,
            "draw_decline" => Action::DrawDecline,
            "draw_claim" => Action::DrawClaim,
            "flag_claim" => Action::FlagClaim,
            "resign" => Action::Resign,
            "clock" => Action::Clock,
            "own_clock" => Action::OwnClock,
            "promote" => Action::PromoteNext,
            "promote_queen" => Action::Promote(Role::Queen),
            "promote_rook" => Action::Promote(Role::Rook),
            "promote_bishop" => Action::Promote(Role::Bishop),
            "promote_knight" => Action::Promote(Role::Knight),
            "square" => Action::Square,
            "rank" => Action::Rank,
            "file" => Action::File,
            "resume" => Action::Resume,
            "new_game" => Action::NewGame,
            "to_replicate" => Action::ToReplicate,
            "differences" => Action::Differences,
            "relay" => Action::Relay,
            "console_token" => Action::ConsoleToken,
            "hint" => Action::Hint,
            "evaluation" => Action::Evaluation,
            "takeback" => Action::TakeBack,
            "review" => Action::Review,
            "material" => Action::Material,
            "call_arbiter" => Action::CallArbiter,
            "threat" => Action::Threat,
            "opening" => Action::Opening,
            "menu" => Action::Menu,
            _ => match name
                .strip_prefix("digit")
                .and_then(|d| d.parse::<u8>().ok())
            {
                Some(d @ 1..=8) => Action::Digit(d),
                _ => {
                    return Err(format!(
                        "unknown key action \"{name}\"; the actions are: {}",
                        Action::NAMES
                    ));
                }
            },
        })
    }
}

/// One key's meaning: on a short press and (optionally) a long one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyMap {
    pub press: Option<Action>,
    pub long: Option<Action>,
    /// The menu step a press is while the menu is open (not the press
    /// whose action is `menu`).
    pub menu: Option<crate::core::input::MenuStep>,
}

/// A digit entry under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    None,
    Square,
    SquareFile(File),
    Rank,
    File,
    /// A relayed move: the digits so far (file, rank, file, rank).
    Relay([u8; 3], usize),
}

/// The keypad: presses to inputs.
#[derive(Debug, Clone)]
pub struct Keypad {
    keys: Vec<KeyMap>,
    /// The keypad owner's colour (for draw offers, claims, resigning).
    player: Color,
    entry: Entry,
    promotion: usize,
    /// The promotion piece last chosen with a key.
    chosen: Option<Role>,
    /// The console's secret was asked for and not yet said.
    token_asked: bool,
}

const PROMOTION_ORDER: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl Keypad {
    /// The keypad's owner plays `player` from now on (the spoken menu
    /// changed his colour for the next game).
    pub fn set_player(&mut self, player: Color) {
        self.player = player;
    }

    pub fn new(keys: Vec<KeyMap>, player: Color) -> Keypad {
        Keypad {
            keys,
            player,
            entry: Entry::None,
            promotion: PROMOTION_ORDER.len() - 1,
            chosen: None,
            token_asked: false,
        }
    }

    /// The input a press makes, if any (a digit entry's first keys make none).
    pub fn press(&mut self, press: Press) -> Option<Input> {
        let (key, long) = match press {
            Press::Short(k) => (k, false),
            Press::Long(k) => (k, true),
        };
        let map = *self.keys.get(key as usize)?;
        let action = if long { map.long } else { map.press };
        // A key with a menu role is that step in the menu, held or not
        // (a press held a little long must not offer a draw), but for the
        // press that opens and leaves the menu.
        let step = map.menu.filter(|_| action != Some(Action::Menu));
        let Some(action) = action else {
            return step.map(crate::core::Input::Menu);
        };
        let input = self.action(action);
        match (step, input) {
            (Some(menu), Some(input)) => Some(Input::Keyed {
                menu,
                input: Box::new(input),
            }),
            (Some(menu), None) => Some(Input::Menu(menu)),
            (None, input) => input,
        }
    }

    /// What an action makes, if anything (a digit entry's first keys make
    /// nothing).
    fn action(&mut self, action: Action) -> Option<Input> {
        if let Action::Digit(d) = action {
            return self.digit(d);
        }
        self.entry = Entry::None;
        Some(match action {
            Action::Repeat => Input::Repeat(1),
            Action::Times => Input::Times,
            Action::Position => Input::Position,
            Action::MoveNumber => Input::MoveNumber,
            Action::Adjust => Input::Adjust(Some(self.player)),
            Action::DrawOffer => Input::DrawOffer(self.player),
            Action::DrawDecline => Input::DrawDecline(self.player),
            Action::DrawClaim => Input::DrawClaim(self.player),
            Action::FlagClaim => Input::FlagClaim(self.player),
            Action::Resign => Input::ResignKey(self.player),
            Action::Clock => Input::Clock(!self.player),
            Action::OwnClock => Input::Clock(self.player),
            Action::Resume => Input::Resume,
            Action::NewGame => Input::NewGame,
            Action::ToReplicate => Input::ToReplicate,
            Action::Hint => Input::Hint,
            Action::Evaluation => Input::Evaluation(None),
            Action::TakeBack => Input::PracticeTakeBack,
            Action::Review => Input::Review,
            Action::Material => Input::Material,
            Action::CallArbiter => Input::CallArbiter,
            Action::Threat => Input::Threat,
            Action::Opening => Input::Opening,
            Action::Menu => Input::Menu(crate::core::input::MenuStep::Open),
            Action::Differences => Input::Differences,
            Action::PromoteNext => {
                self.promotion = (self.promotion + 1) % PROMOTION_ORDER.len();
                self.chosen = Some(PROMOTION_ORDER[self.promotion]);
                Input::Promote(PROMOTION_ORDER[self.promotion])
            }
            Action::Promote(role) => {
                self.chosen = Some(role);
                Input::Promote(role)
            }
            Action::Square => {
                self.entry = Entry::Square;
                return None;
            }
            Action::Rank => {
                self.entry = Entry::Rank;
                return None;
            }
            Action::File => {
                self.entry = Entry::File;
                return None;
            }
            Action::Relay => {
                self.entry = Entry::Relay([0; 3], 0);
                return None;
            }
            Action::ConsoleToken => {
                self.token_asked = true;
                return None;
            }
            Action::Digit(_) => return None,
        })
    }

    /// Whether the console's secret was asked for since the last call.
    pub fn take_token_request(&mut self) -> bool {
        std::mem::take(&mut self.token_asked)
    }

    fn digit(&mut self, d: u8) -> Option<Input> {
        let i = u32::from(d.clamp(1, 8) - 1);
        let (entry, input) = match self.entry {
            Entry::None => (Entry::None, None),
            Entry::Square => (Entry::SquareFile(File::new(i)), None),
            Entry::SquareFile(f) => (
                Entry::None,
                Some(Input::Square(Square::from_coords(f, Rank::new(i)))),
            ),
            Entry::Rank => (Entry::None, Some(Input::Rank(Rank::new(i)))),
            Entry::File => (Entry::None, Some(Input::File(File::new(i)))),
            Entry::Relay(mut digits, n) if n < 3 => {
                digits[n] = i as u8;
                (Entry::Relay(digits, n + 1), None)
            }
            Entry::Relay(d, _) => {
                let square = |f: u8, r: u8| {
                    Square::from_coords(File::new(u32::from(f)), Rank::new(u32::from(r)))
                };
                let (from, to) = (square(d[0], d[1]), square(d[2], i as u8));
                // A pawn reaching the last rank takes the chosen piece; the
                // game ignores it for any other move.
                let last = matches!(to.rank(), Rank::First | Rank::Eighth);
                let promotion = last.then(|| self.chosen.unwrap_or(Role::Queen));
                (
                    Entry::None,
                    Some(Input::Move(crate::core::input::Relayed::Uci(
                        shakmaty::uci::UciMove::Normal {
                            from,
                            to,
                            promotion,
                        },
                    ))),
                )
            }
        };
        self.entry = entry;
        input
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(d: &mut ButtonDebouncer, samples: &[(u64, u16)]) -> Vec<Press> {
        let mut out = Vec::new();
        for &(t, w) in samples {
            d.sample(t, w, &mut out);
        }
        out
    }

    #[test]
    fn a_short_press_is_reported_on_release() {
        let mut d = ButtonDebouncer::new(ButtonTiming::default());
        let out = run(
            &mut d,
            &[(0, 0), (5, 1), (30, 1), (200, 1), (205, 0), (230, 0)],
        );
        assert_eq!(out, vec![Press::Short(0)]);
    }

    #[test]
    fn bounces_shorter_than_the_debounce_time_are_not_presses() {
        let mut d = ButtonDebouncer::new(ButtonTiming::default());
        let out = run(
            &mut d,
            &[(0, 0), (5, 2), (10, 0), (15, 2), (20, 0), (60, 0)],
        );
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_long_press_is_reported_while_held_and_not_again_on_release() {
        let mut d = ButtonDebouncer::new(ButtonTiming::default());
        let out = run(
            &mut d,
            &[
                (0, 4),
                (25, 4),
                (799, 4),
                (800, 4),
                (900, 4),
                (1000, 0),
                (1030, 0),
            ],
        );
        assert_eq!(out, vec![Press::Long(2)]);
    }

    #[test]
    fn two_keys_at_once_are_two_presses() {
        let mut d = ButtonDebouncer::new(ButtonTiming::default());
        let out = run(&mut d, &[(0, 0b11), (30, 0b11), (100, 0), (130, 0)]);
        assert_eq!(out, vec![Press::Short(0), Press::Short(1)]);
    }

    fn keypad() -> Keypad {
        let k = |p: &str, l: Option<&str>| KeyMap {
            press: Some(Action::parse(p).unwrap()),
            long: l.map(|l| Action::parse(l).unwrap()),
            menu: None,
        };
        let mut keys = vec![
            k("repeat", Some("position")),
            k("square", Some("rank")),
            k("promote", None),
            k("clock", Some("resign")),
        ];
        for d in 1..=8 {
            keys.push(k(&format!("digit{d}"), None));
        }
        Keypad::new(keys, Color::White)
    }

    #[test]
    fn keys_give_their_inputs_short_and_long() {
        let mut k = keypad();
        assert_eq!(k.press(Press::Short(0)), Some(Input::Repeat(1)));
        assert_eq!(k.press(Press::Long(0)), Some(Input::Position));
        // The sighted opponent's clock button, and resigning for the owner.
        assert_eq!(k.press(Press::Short(3)), Some(Input::Clock(Color::Black)));
        assert_eq!(
            k.press(Press::Long(3)),
            Some(Input::ResignKey(Color::White))
        );
        assert_eq!(k.press(Press::Short(40)), None, "no such key");
    }

    #[test]
    fn a_menu_keys_presses_carry_its_step_but_the_press_that_opens_the_menu() {
        use crate::core::input::MenuStep;
        let key = |press: &str, long: &str, menu| KeyMap {
            press: Some(Action::parse(press).expect("press")),
            long: Some(Action::parse(long).expect("long")),
            menu,
        };
        let mut k = Keypad::new(
            vec![
                key("repeat", "position", Some(MenuStep::Next)),
                key("times", "menu", Some(MenuStep::Select)),
                key("adjust", "draw_offer", Some(MenuStep::Back)),
                key("clock", "new_game", None),
            ],
            Color::White,
        );
        let keyed = |menu, input| {
            Some(Input::Keyed {
                menu,
                input: Box::new(input),
            })
        };
        assert_eq!(
            k.press(Press::Short(0)),
            keyed(MenuStep::Next, Input::Repeat(1))
        );
        assert_eq!(
            k.press(Press::Long(0)),
            keyed(MenuStep::Next, Input::Position)
        );
        assert_eq!(
            k.press(Press::Short(1)),
            keyed(MenuStep::Select, Input::Times)
        );
        // Held, the second key opens (and leaves) the menu: no step.
        assert_eq!(k.press(Press::Long(1)), Some(Input::Menu(MenuStep::Open)));
        // A draw offer held a little long in the menu is a step back.
        assert_eq!(
            k.press(Press::Long(2)),
            keyed(MenuStep::Back, Input::DrawOffer(Color::White))
        );
        assert_eq!(k.press(Press::Long(3)), Some(Input::NewGame));
    }

    #[test]
    fn the_assistants_keypad_relays_a_move_by_its_squares() {
        let key = |press| KeyMap {
            press: Some(press),
            long: None,
            menu: None,
        };
        let mut keys = vec![key(Action::Relay), key(Action::Promote(Role::Knight))];
        keys.extend((1..=8).map(|d| key(Action::Digit(d))));
        let mut pad = Keypad::new(keys, Color::White);
        let digit = |d: u8| Press::Short(d + 1);
        // g8 to f6: files and ranks as 1 to 8.
        let mut inputs = Vec::new();
        for p in [Press::Short(0), digit(7), digit(8), digit(6), digit(6)] {
            inputs.extend(pad.press(p));
        }
        assert_eq!(
            inputs,
            [Input::Move(crate::core::input::Relayed::Uci(
                "g8f6".parse().expect("uci")
            ))]
        );
        // To the last rank: the piece chosen last (a queen if none).
        let mut inputs = Vec::new();
        for p in [Press::Short(0), digit(1), digit(7), digit(1), digit(8)] {
            inputs.extend(pad.press(p));
        }
        assert_eq!(
            inputs,
            [Input::Move(crate::core::input::Relayed::Uci(
                "a7a8q".parse().expect("uci")
            ))]
        );
        pad.press(Press::Short(1));
        let mut inputs = Vec::new();
        for p in [Press::Short(0), digit(1), digit(7), digit(1), digit(8)] {
            inputs.extend(pad.press(p));
        }
        assert_eq!(
            inputs,
            [Input::Move(crate::core::input::Relayed::Uci(
                "a7a8n".parse().expect("uci")
            ))]
        );
    }

    #[test]
    fn square_query_by_file_and_rank_digits() {
        let mut k = keypad();
        assert_eq!(k.press(Press::Short(1)), None);
        assert_eq!(k.press(Press::Short(4 + 4)), None); // digit 5: e-file
        assert_eq!(
            k.press(Press::Short(4 + 3)),
            Some(Input::Square(Square::E4))
        );
        // A rank read-out: long press, then digit 7.
        assert_eq!(k.press(Press::Long(1)), None);
        assert_eq!(
            k.press(Press::Short(4 + 6)),
            Some(Input::Rank(Rank::Seventh))
        );
        // Digits alone do nothing.
        assert_eq!(k.press(Press::Short(4)), None);
    }

    #[test]
    fn promotion_key_steps_queen_rook_bishop_knight() {
        let mut k = keypad();
        let roles: Vec<_> = (0..5).map(|_| k.press(Press::Short(2))).collect();
        assert_eq!(
            roles,
            [
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Queen
            ]
            .map(|r| Some(Input::Promote(r)))
        );
    }

    #[test]
    fn unknown_action_lists_the_known_ones() {
        let e = Action::parse("hints").unwrap_err();
        assert!(e.contains("\"hints\"") && e.contains("draw_offer"), "{e}");
        assert_eq!(Action::parse("takeback"), Ok(Action::TakeBack));
    }
}
