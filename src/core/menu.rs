//! The spoken menu: how a player who cannot read a configuration file
//! chooses the next game's opponent, time control and colour, and the
//! voice's rate, volume and language, with three keys: `next`, `select`
//! and `back` (and the `menu` key that opens it and leaves it unsaved).
//!
//! Pure, like the rest of the core: a step goes in, the words to say and
//! what was chosen come out. Every item is said when it is reached, every
//! value chosen is said back, and leaving with changes says them all back
//! and asks before they are saved. The controller keeps what was saved
//! for the next game ([`Choices::apply`]); the runtime keeps it on disk
//! and sets up the engine and the voices from it.

use shakmaty::Color;

use super::clock::{Bonus, TimeControl};
use super::input::MenuStep;
pub use super::settings::{Choices, OnlineWay, Opponent, Strength};
pub use crate::core::notices::PracticeAct;
use crate::core::notices::{MenuItem, MenuNotice};
pub use crate::core::notices::{MenuSaid, Value};

/// The time controls offered, besides none and the player's own.
const CONTROLS: [&str; 4] = ["5400+30", "40/5400+30:1800+30", "900+10", "300+3"];

/// The clocks offered against an opponent on lichess: those its Board API
/// plays (lila's `isBoardCompatible`), rapid and classical for a seek (its
/// pools' clocks)…
const LICHESS_SEEK_CONTROLS: [&str; 5] = ["600+0", "600+5", "900+10", "1800+0", "1800+20"];
/// …and blitz too against its AI or in a challenge.
const LICHESS_BLITZ_CONTROLS: [&str; 3] = ["180+2", "300+0", "300+3"];

/// The player's own time control: minutes, then seconds a move.
const OWN_MINUTES: [u64; 13] = [1, 2, 3, 5, 10, 15, 20, 25, 30, 45, 60, 90, 120];
const OWN_SECONDS: [u64; 10] = [0, 1, 2, 3, 5, 10, 15, 20, 30, 60];

/// The speech rates and volumes offered.
const RATES: [i32; 8] = [-40, -20, 0, 20, 40, 60, 80, 100];
const VOLUMES: [u32; 10] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

/// The languages offered, in the order the menu says them.
const LANGUAGES: [&str; 6] = ["fide", "de", "en", "es", "pt", "ca"];

trait Values {
    fn value(&self, item: MenuItem) -> Value;
    fn set(&mut self, value: Value);
}

impl Values for Choices {
    fn value(&self, item: MenuItem) -> Value {
        match item {
            // Nothing to keep: the first question is where it begins.
            MenuItem::Practice => Value::Act(PracticeAct::Hint),
            MenuItem::Opponent => Value::Opponent(self.opponent.clone()),
            MenuItem::TimeControl => Value::Control(self.control.clone()),
            MenuItem::Color => Value::Color(self.color),
            MenuItem::Rate => Value::Rate(self.rate),
            MenuItem::Volume => Value::Volume(self.volume),
            MenuItem::Language => Value::Language(self.language.clone()),
        }
    }

    fn set(&mut self, value: Value) {
        match value {
            Value::Opponent(o) => self.opponent = o,
            Value::Control(c) => self.control = c,
            Value::Color(c) => self.color = c,
            Value::Rate(r) => self.rate = r,
            Value::Volume(v) => self.volume = v,
            Value::Language(l) => self.language = l,
            Value::OwnTime | Value::Act(_) => {}
        }
    }
}

/// The menu's items, in the order `next` reaches them; in a game against
/// the engine the practice questions come first.
const ITEMS: [MenuItem; 6] = [
    MenuItem::Opponent,
    MenuItem::TimeControl,
    MenuItem::Color,
    MenuItem::Rate,
    MenuItem::Volume,
    MenuItem::Language,
];

/// The practice questions the practice item offers, in order.
const PRACTICE: [PracticeAct; 7] = [
    PracticeAct::Hint,
    PracticeAct::Threat,
    PracticeAct::Evaluation,
    PracticeAct::TakeBack,
    PracticeAct::Review,
    PracticeAct::Material,
    PracticeAct::Opening,
];

/// The opponents on lichess offered, `friends` the ones to challenge:
/// a seek, casual and rated; its AI at each level; each friend, casual
/// and rated; a challenge accepted.
fn lichess_opponents(friends: &[String]) -> Vec<Opponent> {
    let mut out = vec![
        OnlineWay::Seek { rated: false },
        OnlineWay::Seek { rated: true },
    ];
    out.extend((1..=8).map(|level| OnlineWay::Ai { level }));
    for name in friends {
        for rated in [false, true] {
            out.push(OnlineWay::Friend {
                name: name.clone(),
                rated,
            });
        }
    }
    out.push(OnlineWay::Accept);
    out.into_iter().map(Opponent::Lichess).collect()
}

/// The clocks lichess plays against `way`.
fn lichess_controls(way: &OnlineWay) -> Vec<TimeControl> {
    let blitz = match way {
        OnlineWay::Seek { .. } => &[][..],
        _ => &LICHESS_BLITZ_CONTROLS[..],
    };
    blitz
        .iter()
        .chain(LICHESS_SEEK_CONTROLS.iter())
        .filter_map(|c| TimeControl::parse_pgn(c).ok())
        .collect()
}

/// Whether lichess plays `control` against `way`.
pub fn lichess_plays(way: &OnlineWay, control: Option<&TimeControl>) -> bool {
    control.is_some_and(|c| lichess_controls(way).contains(c))
}

/// The values `next` goes through for an item: the opponents on lichess
/// when `online` offers them (its friends), and against one of them the
/// clocks lichess plays.
fn values(item: MenuItem, draft: &Choices, online: Option<&[String]>) -> Vec<Value> {
    match item {
        MenuItem::Practice => PRACTICE.iter().map(|&a| Value::Act(a)).collect(),
        MenuItem::Opponent => std::iter::once(Opponent::Person)
            .chain(
                crate::engine::strength::STEPS
                    .iter()
                    .map(|s| Opponent::Engine(Strength::Step(s.number))),
            )
            .chain(online.map(lichess_opponents).unwrap_or_default())
            .map(Value::Opponent)
            .collect(),
        MenuItem::TimeControl => match &draft.opponent {
            Opponent::Lichess(way) => lichess_controls(way)
                .into_iter()
                .map(|c| Value::Control(Some(c)))
                .collect(),
            _ => CONTROLS
                .iter()
                .filter_map(|c| TimeControl::parse_pgn(c).ok())
                .map(|c| Value::Control(Some(c)))
                .chain([Value::Control(None), Value::OwnTime])
                .collect(),
        },
        MenuItem::Color => vec![Value::Color(Color::White), Value::Color(Color::Black)],
        MenuItem::Rate => RATES.iter().map(|&r| Value::Rate(r)).collect(),
        MenuItem::Volume => VOLUMES.iter().map(|&v| Value::Volume(v)).collect(),
        MenuItem::Language => LANGUAGES
            .iter()
            .map(|l| Value::Language(l.to_string()))
            .collect(),
    }
}

/// Where the player is in the menu.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum State {
    #[default]
    Closed,
    /// At the item `items[at]`.
    Items(usize),
    /// Going through the values of `items[item]`, at `values(…)[at]`.
    Values { item: usize, at: usize },
    /// The player's own time control: its minutes.
    OwnMinutes(usize),
    /// Then its seconds a move.
    OwnSeconds { minutes: u64, at: usize },
    /// The changes said back: save them, or discard them.
    Confirm,
    /// Saved during a game under way: a new game now, or the next one.
    UnderWay,
}

/// The spoken menu.
#[derive(Debug, Clone, Default)]
pub struct Menu {
    state: State,
    /// The choices as the player is changing them.
    draft: Option<Choices>,
    /// The friends on lichess, when opponents there are offered.
    online: Option<Vec<String>>,
    /// The items as the menu was opened: the practice item first in a
    /// game against the engine.
    items: Vec<MenuItem>,
    /// Rated play: no opponent but a person is offered.
    rated: bool,
}

/// What a step in the menu leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing (a menu key while the menu is closed).
    Nothing,
    /// Something to say.
    Say(MenuSaid),
    /// The choices were saved; `now`: the game begins again with them
    /// (none was under way).
    Saved {
        choices: Choices,
        now: bool,
        say: MenuSaid,
    },
    /// After saving during a game under way: a new game now, with them.
    BeginNow,
    /// A practice question was selected: the menu is closed, and the
    /// question is asked.
    Ask(PracticeAct),
}

impl Menu {
    /// A menu that offers opponents on lichess when `online` gives the
    /// friends to challenge there.
    pub fn new(online: Option<Vec<String>>) -> Menu {
        Menu {
            online,
            ..Menu::default()
        }
    }

    /// A menu for rated play: it offers no opponent but a person (no
    /// engine, nobody online).
    pub fn rated() -> Menu {
        Menu {
            rated: true,
            ..Menu::default()
        }
    }

    /// The values of `item` for `draft`.
    fn values_of(&self, item: MenuItem, draft: &Choices) -> Vec<Value> {
        if self.rated && item == MenuItem::Opponent {
            return vec![Value::Opponent(Opponent::Person)];
        }
        values(item, draft, self.online.as_deref())
    }

    /// Whether the menu is open: the keys with a menu role are its steps.
    pub fn is_open(&self) -> bool {
        self.state != State::Closed
    }

    /// Where `item` stands among the items.
    fn index(&self, item: MenuItem) -> usize {
        self.items.iter().position(|&i| i == item).unwrap_or(0)
    }

    /// One step. `chosen` is what the next game would start with now;
    /// `under_way`: a game has begun and not ended; `practice`: a game
    /// against the engine (its questions are the first item).
    pub fn step(
        &mut self,
        step: MenuStep,
        chosen: &Choices,
        (under_way, practice): (bool, bool),
    ) -> Outcome {
        let state = std::mem::take(&mut self.state);
        if step == MenuStep::Open {
            if state == State::Closed {
                self.draft = Some(chosen.clone());
                self.items = practice
                    .then_some(MenuItem::Practice)
                    .into_iter()
                    .chain(ITEMS)
                    .collect();
                self.state = State::Items(0);
                return Outcome::Say(self.item_line(0, true));
            }
            // The menu key in the menu leaves it, unsaved.
            self.draft = None;
            return Outcome::Say(MenuSaid::Notice(MenuNotice::Closed));
        }
        let Some(draft) = self.draft.clone() else {
            return Outcome::Nothing;
        };
        let say = |n: MenuNotice| Outcome::Say(MenuSaid::Notice(n));
        match (state, step) {
            (State::Closed, _) => Outcome::Nothing,
            (State::Items(at), MenuStep::Next) => {
                let at = (at + 1) % self.items.len();
                self.state = State::Items(at);
                Outcome::Say(self.item_line(at, false))
            }
            (State::Items(item), MenuStep::Select) => {
                let list = self.values_of(self.items[item], &draft);
                let now = draft.value(self.items[item]);
                let at = list.iter().position(|v| *v == now).unwrap_or(0);
                self.state = State::Values { item, at };
                Outcome::Say(MenuSaid::Value(list[at].clone()))
            }
            (State::Items(_), MenuStep::Back) => {
                let changes = changes(chosen, &draft);
                if changes.is_empty() {
                    self.draft = None;
                    return say(MenuNotice::Closed);
                }
                self.state = State::Confirm;
                Outcome::Say(MenuSaid::Confirm(changes))
            }
            (State::Values { item, at }, MenuStep::Next) => {
                let list = self.values_of(self.items[item], &draft);
                let at = (at + 1) % list.len();
                self.state = State::Values { item, at };
                Outcome::Say(MenuSaid::Value(list[at].clone()))
            }
            (State::Values { item, at }, MenuStep::Select) => {
                let list = self.values_of(self.items[item], &draft);
                match list[at].clone() {
                    Value::Act(act) => {
                        self.draft = None;
                        Outcome::Ask(act)
                    }
                    Value::OwnTime => {
                        let at = OWN_MINUTES.iter().position(|&n| n == 15).unwrap_or(0);
                        self.state = State::OwnMinutes(at);
                        Outcome::Say(MenuSaid::Minutes(OWN_MINUTES[at] * 60_000))
                    }
                    value => self.choose(item, value),
                }
            }
            (State::Values { item, .. }, MenuStep::Back) => {
                self.state = State::Items(item);
                Outcome::Say(self.item_line(item, false))
            }
            (State::OwnMinutes(at), MenuStep::Next) => {
                let at = (at + 1) % OWN_MINUTES.len();
                self.state = State::OwnMinutes(at);
                Outcome::Say(MenuSaid::Minutes(OWN_MINUTES[at] * 60_000))
            }
            (State::OwnMinutes(at), MenuStep::Select) => {
                let minutes = OWN_MINUTES[at];
                self.state = State::OwnSeconds { minutes, at: 0 };
                Outcome::Say(MenuSaid::Increment(OWN_SECONDS[0] * 1000))
            }
            (State::OwnSeconds { minutes, at }, MenuStep::Next) => {
                let at = (at + 1) % OWN_SECONDS.len();
                self.state = State::OwnSeconds { minutes, at };
                Outcome::Say(MenuSaid::Increment(OWN_SECONDS[at] * 1000))
            }
            (State::OwnSeconds { minutes, at }, MenuStep::Select) => {
                let bonus = match OWN_SECONDS[at] {
                    0 => Bonus::None,
                    s => Bonus::Increment(s * 1000),
                };
                let control = TimeControl::sudden_death(minutes * 60_000, bonus);
                let item = self.index(MenuItem::TimeControl);
                self.choose(item, Value::Control(Some(control)))
            }
            (State::OwnMinutes(_) | State::OwnSeconds { .. }, MenuStep::Back) => {
                let item = self.index(MenuItem::TimeControl);
                self.state = State::Items(item);
                Outcome::Say(self.item_line(item, false))
            }
            (State::Confirm, MenuStep::Select) => {
                if under_way {
                    self.state = State::UnderWay;
                } else {
                    self.draft = None;
                }
                Outcome::Saved {
                    choices: draft,
                    now: !under_way,
                    say: MenuSaid::Notice(if under_way {
                        MenuNotice::UnderWay
                    } else {
                        MenuNotice::Saved
                    }),
                }
            }
            (State::Confirm, MenuStep::Back) => {
                self.draft = None;
                say(MenuNotice::Discarded)
            }
            (State::UnderWay, MenuStep::Select) => {
                self.draft = None;
                Outcome::BeginNow
            }
            (State::UnderWay, MenuStep::Back) => {
                self.draft = None;
                say(MenuNotice::NextGame)
            }
            // `next` while a question waits: the question again.
            (state @ State::Confirm, MenuStep::Next) => {
                self.state = state;
                Outcome::Say(MenuSaid::Confirm(changes(chosen, &draft)))
            }
            (state @ State::UnderWay, MenuStep::Next) => {
                self.state = state;
                say(MenuNotice::UnderWay)
            }
            (_, MenuStep::Open) => Outcome::Nothing,
        }
    }

    /// A value chosen: kept in the draft, said back, and back at its item.
    fn choose(&mut self, item: usize, value: Value) -> Outcome {
        let said = value.clone();
        if let Some(draft) = &mut self.draft {
            draft.set(value);
            // lichess plays some clocks only: the nearest it plays.
            if let Opponent::Lichess(way) = &draft.opponent
                && !lichess_plays(way, draft.control.as_ref())
            {
                draft.control = TimeControl::parse_pgn("900+10").ok();
            }
        }
        self.state = State::Items(item);
        Outcome::Say(MenuSaid::Chosen {
            item: self.items[item],
            value: said,
        })
    }

    /// An item with the value the draft gives it.
    fn item_line(&self, at: usize, opened: bool) -> MenuSaid {
        let item = self.items[at];
        MenuSaid::Line {
            item,
            value: self.draft.as_ref().map(|d| d.value(item)),
            opened,
        }
    }
}

/// Every item whose value changed, with its new value.
fn changes(chosen: &Choices, draft: &Choices) -> Vec<(MenuItem, Value)> {
    ITEMS
        .iter()
        .filter(|&&item| chosen.value(item) != draft.value(item))
        .map(|&item| (item, draft.value(item)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    // The menu's words are tested where its facts become words, with
    // the menu's steps: a test may read the words, the menu may not.
    use crate::announce::{Phrasebook, Vocabulary};
    use crate::core::settings::{BLIND_BOARD, Seat, Seats};

    fn german() -> Phrasebook {
        Phrasebook::new(Vocabulary::fide())
    }

    fn steps(menu: &mut Menu, chosen: &Choices, keys: &[MenuStep]) -> Vec<Outcome> {
        keys.iter()
            .map(|&k| menu.step(k, chosen, (false, false)))
            .collect()
    }

    fn said(o: &Outcome) -> String {
        match o {
            Outcome::Say(s) | Outcome::Saved { say: s, .. } => german().menu_said(s),
            Outcome::Nothing | Outcome::BeginNow | Outcome::Ask(_) => String::new(),
        }
    }

    use MenuStep::{Back, Next, Open, Select};

    #[test]
    fn lichess_is_offered_with_a_token_its_ways_and_only_the_clocks_it_plays() {
        let chosen = Choices::default();
        // Without lichess offered: a person and the engine's steps.
        let plain = Menu::default();
        assert_eq!(plain.values_of(MenuItem::Opponent, &chosen).len(), 9);
        let menu = Menu::new(Some(vec!["bert".into()]));
        let opponents = menu.values_of(MenuItem::Opponent, &chosen);
        // A seek casual and rated, the AI at 8 levels, Bert casual and
        // rated, a challenge accepted.
        assert_eq!(opponents.len(), 9 + 2 + 8 + 2 + 1);
        let words = german();
        let said: Vec<String> = opponents[9..].iter().map(|v| words.menu_value(v)).collect();
        assert_eq!(said[0], "Netz, Suche, ohne Elo");
        assert_eq!(said[1], "Netz, Suche, mit Elo");
        assert_eq!(said[4], "Netz, Maschine, Stufe 3");
        assert_eq!(said[11], "Netz, gegen bert, mit Elo");
        assert_eq!(said[12], "Netz, Herausforderung annehmen");
        // The clocks: a seek rapid and slower (lila's pools), the AI
        // blitz too; never none, never periods, never one's own.
        let clocks = |way: OnlineWay| -> Vec<String> {
            let draft = Choices {
                opponent: Opponent::Lichess(way),
                ..Choices::default()
            };
            menu.values_of(MenuItem::TimeControl, &draft)
                .iter()
                .map(|v| match v {
                    Value::Control(Some(c)) => c.to_pgn(),
                    other => format!("{other:?}"),
                })
                .collect()
        };
        assert_eq!(
            clocks(OnlineWay::Seek { rated: false }),
            ["600", "600+5", "900+10", "1800", "1800+20"]
        );
        assert_eq!(
            clocks(OnlineWay::Ai { level: 1 })[..3],
            ["180+2", "300", "300+3"]
        );
        // lichess chosen while the clock is one it does not play: 15+10.
        let mut menu = Menu::new(Some(Vec::new()));
        let mut keys = vec![Open, Select];
        keys.extend(std::iter::repeat_n(Next, 9));
        keys.extend([Select, Back, Select]);
        let out = steps(&mut menu, &chosen, &keys);
        let Some(Outcome::Saved { choices, .. }) = out.last() else {
            panic!("saved: {out:?}");
        };
        assert_eq!(
            choices.opponent,
            Opponent::Lichess(OnlineWay::Seek { rated: false })
        );
        assert_eq!(
            choices.control.as_ref().map(|c| c.to_pgn()).as_deref(),
            Some("900+10")
        );
    }

    #[test]
    fn in_rated_play_the_menu_offers_no_opponent_but_a_person() {
        let chosen = Choices::default();
        let rated = Menu::rated();
        assert_eq!(
            rated.values_of(MenuItem::Opponent, &chosen),
            [Value::Opponent(Opponent::Person)]
        );
        // The other items as ever: the clocks, the colours.
        assert_eq!(
            rated.values_of(MenuItem::TimeControl, &chosen),
            Menu::default().values_of(MenuItem::TimeControl, &chosen)
        );
        // Choices kept from practice seat no engine in rated play.
        let practice = Choices {
            opponent: Opponent::Engine(Strength::Step(3)),
            ..Choices::default()
        };
        let mut settings = crate::core::Settings {
            tournament: true,
            ..crate::core::Settings::default()
        };
        practice.apply(&mut settings);
        assert_eq!(settings.seats, crate::core::Settings::default().seats);
        settings.tournament = false;
        practice.apply(&mut settings);
        assert_ne!(settings.seats, crate::core::Settings::default().seats);
    }

    #[test]
    fn the_practice_item_asks_for_the_openings_name() {
        let chosen = Choices::default();
        let mut menu = Menu::default();
        let mut step = |k| menu.step(k, &chosen, (true, true));
        step(Open);
        assert_eq!(said(&step(Select)), "Tipp");
        for _ in 0..5 {
            step(Next);
        }
        assert_eq!(said(&step(Next)), "Eröffnung");
        assert_eq!(step(Select), Outcome::Ask(PracticeAct::Opening));
    }

    #[test]
    fn in_a_game_against_the_engine_the_practice_questions_come_first_and_are_asked_on_select() {
        let chosen = Choices::default();
        let mut menu = Menu::default();
        let mut step = |k| menu.step(k, &chosen, (true, true));
        assert_eq!(said(&step(Open)), "Menü. Übung: Tipp.");
        assert_eq!(said(&step(Select)), "Tipp");
        let values: Vec<String> = (0..7).map(|_| said(&step(Next)).to_string()).collect();
        assert_eq!(
            values,
            [
                "Drohung",
                "wer steht besser",
                "Zug zurück",
                "Auswertung",
                "wer hat mehr",
                "Eröffnung",
                "Tipp"
            ]
        );
        step(Next);
        assert_eq!(said(&step(Next)), "wer steht besser");
        // Selected: the menu closes and the question is asked.
        assert_eq!(step(Select), Outcome::Ask(PracticeAct::Evaluation));
        assert!(!menu.is_open());
        // The other items follow it; the own time control still comes
        // back to the time item.
        let mut step = |k| menu.step(k, &chosen, (true, true));
        step(Open);
        assert_eq!(said(&step(Next)), "Gegner: Mensch am Brett.");
        assert!(said(&step(Next)).starts_with("Zeit: "));
        // Not against the engine: no practice item.
        let mut plain = Menu::default();
        assert!(said(&plain.step(Open, &chosen, (false, false))).starts_with("Menü. Gegner"));
    }

    #[test]
    fn each_item_is_said_with_its_value_when_reached() {
        let mut menu = Menu::default();
        let chosen = Choices::default();
        let out = steps(
            &mut menu,
            &chosen,
            &[Open, Next, Next, Next, Next, Next, Next],
        );
        let lines: Vec<String> = out.iter().map(said).collect();
        assert_eq!(
            lines,
            [
                "Menü. Gegner: Mensch am Brett.",
                "Zeit: ohne Uhr.",
                "Farbe: Weiß.",
                "Tempo: 40.",
                "Lautstärke: 100 Prozent.",
                "Sprache: FIDE.",
                "Gegner: Mensch am Brett.",
            ]
        );
    }

    #[test]
    fn an_engine_game_at_15_plus_10_is_chosen_said_back_and_saved() {
        let mut menu = Menu::default();
        let chosen = Choices::default();
        // Opponent: select, next to step 1, next to step 2, select.
        let out = steps(&mut menu, &chosen, &[Open, Select, Next, Next, Select]);
        assert_eq!(said(&out[1]), "Mensch am Brett");
        assert_eq!(said(&out[2]), "Maschine, Stufe 1, Anfänger");
        assert_eq!(
            said(&out[4]),
            "Gewählt: Gegner, Maschine, Stufe 2, etwa 1100."
        );
        // Time: next item, select (at its value now, no clock), then the
        // player's own, 90+30, 40/90…, 15+10, select.
        let out = steps(
            &mut menu,
            &chosen,
            &[Next, Select, Next, Next, Next, Next, Select],
        );
        assert_eq!(said(&out[1]), "ohne Uhr");
        assert_eq!(said(&out[2]), "eigene Zeit");
        assert_eq!(
            said(&out[3]),
            "eine Stunde 30 Minuten plus 30 Sekunden pro Zug"
        );
        assert_eq!(
            said(&out[4]),
            "40 Züge in einer Stunde 30 Minuten, dann 30 Minuten plus 30 Sekunden pro Zug"
        );
        assert_eq!(
            said(&out[6]),
            "Gewählt: Zeit, 15 Minuten plus 10 Sekunden pro Zug."
        );
        let out = steps(&mut menu, &chosen, &[Back]);
        assert_eq!(
            said(&out[0]),
            "Speichern? Gegner Maschine, Stufe 2, etwa 1100, Zeit 15 Minuten plus 10 Sekunden pro Zug. \
             Auswählen speichert, zurück verwirft."
        );
        let out = steps(&mut menu, &chosen, &[Select]);
        let Outcome::Saved { choices, now, .. } = &out[0] else {
            panic!("{out:?}")
        };
        assert!(*now);
        assert_eq!(choices.opponent, Opponent::Engine(Strength::Step(2)));
        assert_eq!(
            choices.control.as_ref().map(|c| c.to_pgn()).as_deref(),
            Some("900+10")
        );
        assert!(!menu.is_open());
    }

    #[test]
    fn the_menu_key_leaves_unsaved_and_back_discards() {
        let mut menu = Menu::default();
        let chosen = Choices::default();
        let out = steps(
            &mut menu,
            &chosen,
            &[Open, Next, Next, Select, Next, Select, Open],
        );
        assert_eq!(said(&out[5]), "Gewählt: Farbe, Schwarz.");
        assert_eq!(said(&out[6]), "Menü geschlossen.");
        assert!(!menu.is_open());
        // Opened again, the draft is what was chosen before: White.
        let out = steps(&mut menu, &chosen, &[Open, Next, Next]);
        assert_eq!(said(&out[2]), "Farbe: Weiß.");
        let out = steps(&mut menu, &chosen, &[Select, Next, Select, Back, Back]);
        assert_eq!(said(&out[4]), "Verworfen.");
        // Nothing changed: back closes at once.
        let out = steps(&mut menu, &chosen, &[Open, Back]);
        assert_eq!(said(&out[1]), "Menü geschlossen.");
    }

    #[test]
    fn a_game_under_way_changes_only_when_confirmed() {
        let chosen = Choices::default();
        let mut menu = Menu::default();
        for k in [Open, Next, Next, Select, Next, Select, Back] {
            menu.step(k, &chosen, (true, false));
        }
        let Outcome::Saved { now, say, .. } = menu.step(Select, &chosen, (true, false)) else {
            panic!("not saved")
        };
        assert!(!now);
        let say = german().menu_said(&say);
        assert!(say.contains("läuft noch"), "{say}");
        assert_eq!(
            said(&menu.step(Back, &chosen, (true, false))),
            "Das gilt ab der nächsten Partie."
        );
        for k in [Open, Next, Next, Select, Next, Select, Back, Select] {
            menu.step(k, &chosen, (true, false));
        }
        assert_eq!(menu.step(Select, &chosen, (true, false)), Outcome::BeginNow);
    }

    #[test]
    fn the_players_own_time_is_chosen_in_minutes_then_seconds() {
        let mut menu = Menu::default();
        let chosen = Choices::default();
        // The time item opens at its value now (no clock); own time is next.
        let out = steps(
            &mut menu,
            &chosen,
            &[
                Open, Next, Select, Next, Select, Next, Select, Next, Next, Select,
            ],
        );
        assert_eq!(said(&out[3]), "eigene Zeit");
        assert_eq!(said(&out[4]), "15 Minuten");
        assert_eq!(said(&out[5]), "20 Minuten");
        assert_eq!(said(&out[6]), "plus 0 Sekunden pro Zug");
        assert_eq!(said(&out[8]), "plus 2 Sekunden pro Zug");
        assert_eq!(
            said(&out[9]),
            "Gewählt: Zeit, 20 Minuten plus 2 Sekunden pro Zug."
        );
    }

    #[test]
    fn seats_follow_the_opponent_and_colour() {
        let blind = Seat::Board(BLIND_BOARD.into());
        let engine_black = Seats {
            white: blind.clone(),
            black: Seat::Engine,
        };
        let person = Choices::default();
        assert_eq!(person.seats(&engine_black), Seats::default());
        let engine = Choices {
            opponent: Opponent::Engine(Strength::Step(8)),
            color: Color::Black,
            ..Choices::default()
        };
        assert_eq!(
            engine.seats(&Seats::default()),
            Seats {
                white: Seat::Engine,
                black: blind.clone()
            }
        );
        // A two-board game against a person keeps its boards.
        let two = Seats {
            white: blind,
            black: Seat::Board("opponent".into()),
        };
        assert_eq!(person.seats(&two), two);
    }

    #[test]
    fn a_configured_strength_off_the_steps_is_said_as_it_is() {
        let words = german();
        let v = |s| words.menu_value(&Value::Opponent(Opponent::Engine(s)));
        assert_eq!(v(Strength::Elo(1234)), "Maschine, Elo 1234");
        assert_eq!(v(Strength::Level(5)), "Maschine, Stärke 5");
        assert_eq!(v(Strength::Step(8)), "Maschine, Stufe 8, volle Stärke");
        assert_eq!(v(Strength::Step(1)), "Maschine, Stufe 1, Anfänger");
        assert_eq!(v(Strength::Step(3)), "Maschine, Stufe 3, etwa 1400");
    }
}
