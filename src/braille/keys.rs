//! The Braille display's keys as a keypad: which of brltty's commands (the
//! display's own keys, as brltty's key table names them) or which key of
//! its Braille keyboard does what, from `[[braille.key]]`.
//!
//! A key either asks the game something, exactly as a key of the keypad
//! does (`times`, `position`, `repeat`, `menu` …: [`Action`]), or moves
//! what the display shows ([`Local`]: pan along a line, step through the
//! lines, show the moves, the board or the last answer again). A key may
//! also have a role in the spoken menu, as a keypad key has.

use serde::Deserialize;

use super::brlapi::Key;
use crate::keys::section::{ActionName, ButtonsConfig, KeyConfig, MenuRole};
use crate::keys::{Action, KeyMap};

/// What a key does to the display itself, without asking the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Local {
    /// The window one display width to the left (the line before at a
    /// line's start).
    PanLeft,
    /// The window one display width to the right (the next line at a
    /// line's end).
    PanRight,
    LineUp,
    LineDown,
    /// Back to the game's line: the last move, its number, who is to move.
    Status,
    /// The moves of the game, a move pair a line, the last first shown.
    Moves,
    /// The position, rank by rank, the eighth first.
    Board,
    /// The last answer again.
    Answer,
}

impl Local {
    pub const NAMES: &'static str =
        "pan_left, pan_right, line_up, line_down, status, moves, board, answer";

    fn parse(name: &str) -> Option<Local> {
        Some(match name {
            "pan_left" => Local::PanLeft,
            "pan_right" => Local::PanRight,
            "line_up" => Local::LineUp,
            "line_down" => Local::LineDown,
            "status" => Local::Status,
            "moves" => Local::Moves,
            "board" => Local::Board,
            "answer" => Local::Answer,
            _ => return None,
        })
    }
}

/// What a display key does: a keypad action, or one of the display's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisplayAction {
    Game(Action),
    Local(Local),
}

impl<'de> Deserialize<'de> for DisplayAction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if let Some(local) = Local::parse(&text) {
            return Ok(DisplayAction::Local(local));
        }
        Action::parse(&text).map(DisplayAction::Game).map_err(|_| {
            serde::de::Error::custom(format!(
                "unknown key action \"{}\"; the display's own are: {}; and every keypad \
                 action: {}",
                crate::text::quote::short(&text),
                Local::NAMES,
                Action::NAMES
            ))
        })
    }
}

/// brltty's commands a display's own keys give (its key tables' names),
/// with their numbers (`BRLAPI_KEY_CMD_*`, block 0).
const COMMANDS: [(&str, u16); 29] = [
    ("lnup", 1),
    ("lndn", 2),
    ("winup", 3),
    ("windn", 4),
    ("prdifln", 5),
    ("nxdifln", 6),
    ("attrup", 7),
    ("attrdn", 8),
    ("top", 9),
    ("bot", 10),
    ("top_left", 11),
    ("bot_left", 12),
    ("prpgrph", 13),
    ("nxpgrph", 14),
    ("prprompt", 15),
    ("nxprompt", 16),
    ("prsearch", 17),
    ("nxsearch", 18),
    ("chrlt", 19),
    ("chrrt", 20),
    ("hwinlt", 21),
    ("hwinrt", 22),
    ("fwinlt", 23),
    ("fwinrt", 24),
    ("fwinltskip", 25),
    ("fwinrtskip", 26),
    ("lnbeg", 27),
    ("lnend", 28),
    ("home", 29),
];

/// Keyboard keys by name (X keysyms, as BrlAPI gives them).
const SYMS: [(&str, u32); 9] = [
    ("enter", 0xFF0D),
    ("tab", 0xFF09),
    ("backspace", 0xFF08),
    ("escape", 0xFF1B),
    ("left", 0xFF51),
    ("up", 0xFF52),
    ("right", 0xFF53),
    ("down", 0xFF54),
    ("space", 0x20),
];

/// A key of the display, as written in the configuration: one of brltty's
/// commands (`fwinrt`, `lnup`, `home`, `back`, `return` …), a keyboard key
/// (`enter`, `escape`, `space` …) or a character typed on the display's
/// Braille keyboard (`t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyName(pub Key);

/// A display key's name that is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKey(pub String);

impl std::fmt::Display for UnknownKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown display key \"{}\": a command of brltty's ({}, back, return), a keyboard \
             key ({}) or one character typed on the display",
            crate::text::quote::short(&self.0),
            COMMANDS.map(|(c, _)| c).join(", "),
            SYMS.map(|(s, _)| s).join(", ")
        )
    }
}

impl std::error::Error for UnknownKey {}

impl KeyName {
    pub fn parse(name: &str) -> Result<KeyName, UnknownKey> {
        let lower = name.to_ascii_lowercase();
        let command = |argument| KeyName(Key::Command { block: 0, argument });
        if let Some((_, n)) = COMMANDS.iter().find(|(c, _)| *c == lower) {
            return Ok(command(*n));
        }
        match lower.as_str() {
            "back" => return Ok(command(30)),
            "return" => return Ok(command(31)),
            _ => {}
        }
        if let Some((_, sym)) = SYMS.iter().find(|(s, _)| *s == lower) {
            return Ok(KeyName(Key::Sym(*sym)));
        }
        let mut chars = name.chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && !c.is_control()
            && !c.is_whitespace()
        {
            // Past Latin-1, brltty gives a character as a Unicode keysym.
            let sym = u32::from(c);
            return Ok(KeyName(Key::Sym(if sym > 0xFF {
                0x0100_0000 | sym
            } else {
                sym
            })));
        }
        Err(UnknownKey(name.to_string()))
    }
}

impl<'de> Deserialize<'de> for KeyName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        KeyName::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// One `[[braille.key]]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisplayKeyConfig {
    /// The key: brltty's command, a keyboard key or a typed character.
    pub key: KeyName,
    /// What it does.
    pub press: Option<DisplayAction>,
    /// While the spoken menu is open: "next", "select" or "back".
    pub menu: Option<MenuRole>,
}

/// What pegboard does with the display's keys when `[braille]` names
/// none: brltty's panning and line keys move along what is shown, its home
/// key goes back to the game's line; on the display's Braille keyboard, t
/// the times, p the position in words, b the board rank by rank, m the
/// moves, r the last move again, n the move number; escape opens the menu
/// (and leaves it), space, enter and backspace are its next, select and
/// back.
pub fn default_keys() -> Vec<DisplayKeyConfig> {
    let key = |name: &str, press: Option<DisplayAction>, menu: Option<&str>| DisplayKeyConfig {
        key: KeyName::parse(name).unwrap_or(KeyName(Key::Sym(0))),
        press,
        menu: menu
            .and_then(crate::core::input::MenuStep::from_role)
            .map(MenuRole),
    };
    let local = |l| Some(DisplayAction::Local(l));
    let game = |a| Some(DisplayAction::Game(a));
    vec![
        key("fwinlt", local(Local::PanLeft), None),
        key("fwinrt", local(Local::PanRight), None),
        key("lnup", local(Local::LineUp), None),
        key("lndn", local(Local::LineDown), None),
        key("home", local(Local::Status), None),
        key("t", game(Action::Times), None),
        key("p", game(Action::Position), None),
        key("b", local(Local::Board), None),
        key("m", local(Local::Moves), None),
        key("r", game(Action::Repeat), None),
        key("n", game(Action::MoveNumber), None),
        key("a", local(Local::Answer), None),
        key("escape", game(Action::Menu), None),
        key("space", None, Some("next")),
        key("enter", None, Some("select")),
        key("backspace", None, Some("back")),
    ]
}

/// The display's keys, looked up.
#[derive(Debug, Clone)]
pub struct DisplayKeys {
    keys: Vec<DisplayKeyConfig>,
}

/// What a pressed key means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pressed {
    /// The key's number in the display's keypad ([`DisplayKeys::keypad`]),
    /// when the game has something to do with it (an action of the
    /// keypad's, or a menu role).
    pub keypad: Option<u8>,
    /// What it does to the display itself.
    pub local: Option<Local>,
}

impl DisplayKeys {
    /// The keys `[braille]` names, or [`default_keys`] when it names none.
    pub fn new(configured: &[DisplayKeyConfig]) -> DisplayKeys {
        let keys = if configured.is_empty() {
            default_keys()
        } else {
            configured.to_vec()
        };
        DisplayKeys { keys }
    }

    /// What `key` does, if it is one of ours (the first that names it).
    pub fn pressed(&self, key: Key) -> Option<Pressed> {
        let i = self.keys.iter().position(|k| k.key.0 == key)?;
        let k = &self.keys[i];
        let game = matches!(k.press, Some(DisplayAction::Game(_))) || k.menu.is_some();
        Some(Pressed {
            keypad: (game && i < 256).then_some(i as u8),
            local: match k.press {
                Some(DisplayAction::Local(l)) => Some(l),
                _ => None,
            },
        })
    }

    /// The keys as the keypad's: each key's number is its place here.
    pub fn keypad(&self) -> Vec<KeyMap> {
        self.keys
            .iter()
            .map(|k| KeyMap {
                press: match k.press {
                    Some(DisplayAction::Game(a)) => Some(a),
                    _ => None,
                },
                long: None,
                menu: k.menu.map(|r| r.0),
            })
            .collect()
    }

    /// Whether the keys can work the spoken menu, as the keypad's rules
    /// say (`[buttons]`'s): the problem at the key it is about.
    pub fn menu_problem(&self) -> Result<(), crate::text::key::KeyProblem> {
        let as_buttons = ButtonsConfig {
            key: self
                .keys
                .iter()
                .map(|k| KeyConfig {
                    pin: None,
                    bit: None,
                    press: match k.press {
                        Some(DisplayAction::Game(a)) => Some(ActionName(a)),
                        _ => None,
                    },
                    long: None,
                    menu: k.menu,
                })
                .collect(),
            ..ButtonsConfig::default()
        };
        as_buttons.menu_problem().map_err(|mut p| {
            if let Some(table) = p.path.first_mut() {
                *table = "braille".into();
            }
            p.message = p.message.replace("[[buttons.key]]", "[[braille.key]]");
            p
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_a_command_a_keyboard_key_or_a_typed_character() {
        assert_eq!(
            KeyName::parse("FWINRT").map(|k| k.0),
            Ok(Key::Command {
                block: 0,
                argument: 24
            })
        );
        assert_eq!(
            KeyName::parse("return").map(|k| k.0),
            Ok(Key::Command {
                block: 0,
                argument: 31
            })
        );
        assert_eq!(KeyName::parse("enter").map(|k| k.0), Ok(Key::Sym(0xFF0D)));
        assert_eq!(KeyName::parse("t").map(|k| k.0), Ok(Key::Sym(0x74)));
        // Past Latin-1, as brltty gives it: a Unicode keysym
        // (BRLAPI_KEY_SYM_UNICODE).
        assert_eq!(KeyName::parse("ж").map(|k| k.0), Ok(Key::Sym(0x0100_0436)));
        let e = KeyName::parse("warp").expect_err("no such key").to_string();
        assert!(e.contains("\"warp\"") && e.contains("fwinrt"), "{e}");
    }

    #[test]
    fn the_default_keys_work_the_menu_and_reach_the_keypad() {
        let keys = DisplayKeys::new(&[]);
        assert_eq!(keys.menu_problem(), Ok(()));
        let t = keys.pressed(Key::Sym(u32::from('t'))).expect("t");
        let map = keys.keypad()[usize::from(t.keypad.expect("the game's"))];
        assert_eq!(map.press, Some(Action::Times));
        let pan = keys
            .pressed(Key::Command {
                block: 0,
                argument: 24,
            })
            .expect("fwinrt");
        assert_eq!((pan.keypad, pan.local), (None, Some(Local::PanRight)));
        assert_eq!(keys.pressed(Key::Sym(u32::from('z'))), None);
    }
}
