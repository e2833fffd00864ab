//! `[buttons]`: the player's keys, their timing and what each press does.

use serde::Deserialize;
use shakmaty::Color;

use super::{Action, ButtonTiming, KeyMap};
use crate::core::input::MenuStep;
use crate::text::bounded;

/// A key action's name, checked where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionName(pub Action);

impl<'de> Deserialize<'de> for ActionName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Action::parse(&text)
            .map(ActionName)
            .map_err(serde::de::Error::custom)
    }
}

/// One `[[buttons.key]]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyConfig {
    /// A GPIO button: its BCM pin (to ground; the pull-up is switched on).
    pub pin: Option<u8>,
    /// A button on the serial scanner: its bit (0–15).
    pub bit: Option<u8>,
    /// What a short press does.
    pub press: Option<ActionName>,
    /// What a long press does.
    pub long: Option<ActionName>,
    /// While the spoken menu is open, a press (short or long, unless it
    /// is the `menu` action itself) is this menu step instead: "next",
    /// "select" or "back".
    pub menu: Option<MenuRole>,
}

/// A key's role in the spoken menu, checked where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenuRole(pub MenuStep);

impl<'de> Deserialize<'de> for MenuRole {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        MenuStep::from_role(&text).map(MenuRole).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown menu role \"{}\"; the roles are: next, select, back",
                crate::text::quote::short(&text)
            ))
        })
    }
}

/// `[buttons]`
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ButtonsConfig {
    /// The colour the keypad's owner (the blind player) plays.
    pub player: PlayerColor,
    #[serde(deserialize_with = "bounded::u64_in::<_, 1, 1000>")]
    pub debounce_ms: u64,
    #[serde(deserialize_with = "bounded::u64_in::<_, 100, 10_000>")]
    pub long_press_ms: u64,
    pub key: Vec<KeyConfig>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerColor {
    #[default]
    White,
    Black,
}

impl From<PlayerColor> for Color {
    fn from(c: PlayerColor) -> Color {
        match c {
            PlayerColor::White => Color::White,
            PlayerColor::Black => Color::Black,
        }
    }
}

impl Default for ButtonsConfig {
    fn default() -> Self {
        let t = ButtonTiming::default();
        ButtonsConfig {
            player: PlayerColor::White,
            debounce_ms: t.debounce_ms,
            long_press_ms: t.long_press_ms,
            key: Vec::new(),
        }
    }
}

impl ButtonsConfig {
    /// Whether the keys can work the spoken menu: a `menu` action needs
    /// keys for next, select and back; a `menu` role needs the `menu`
    /// action that opens the menu; and a menu key may not begin a digit
    /// entry (the digits would wait while the menu is used).
    /// The problem is at the key it is about.
    pub fn menu_problem(&self) -> Result<(), crate::text::key::KeyProblem> {
        use crate::text::key::KeyProblem;
        let opens = self.key.iter().position(|k| {
            k.press.map(|a| a.0) == Some(Action::Menu) || k.long.map(|a| a.0) == Some(Action::Menu)
        });
        let has = |step: MenuStep| self.key.iter().any(|k| k.menu.map(|r| r.0) == Some(step));
        let roles = [MenuStep::Next, MenuStep::Select, MenuStep::Back];
        let with_role = self.key.iter().position(|k| k.menu.is_some());
        let at = |i: usize, field: &'static str| -> Vec<String> {
            vec!["buttons".into(), "key".into(), i.to_string(), field.into()]
        };
        let problem = |path: Vec<String>, message: String| {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            Err(KeyProblem::at(&path, message))
        };
        match (opens, with_role) {
            (Some(i), _) => {
                let missing: Vec<String> = roles
                    .iter()
                    .filter(|&&s| !has(s))
                    .map(|s| format!("\"{}\"", s.role()))
                    .collect();
                if !missing.is_empty() {
                    let field = if self.key[i].press.map(|a| a.0) == Some(Action::Menu) {
                        "press"
                    } else {
                        "long"
                    };
                    return problem(
                        at(i, field),
                        format!(
                            "[[buttons.key]] number {}: the `menu` action needs keys with \
                             menu = \"next\", \"select\" and \"back\"; none has menu = {}",
                            i + 1,
                            missing.join(", ")
                        ),
                    );
                }
            }
            (None, Some(i)) => {
                return problem(
                    at(i, "menu"),
                    format!(
                        "[[buttons.key]] number {}: a `menu` role, but no key has the `menu` \
                         action that opens the menu",
                        i + 1
                    ),
                );
            }
            (None, None) => {}
        }
        for (i, k) in self.key.iter().enumerate() {
            for (field, action) in [("press", k.press), ("long", k.long)] {
                if k.menu.is_some() && action.is_some_and(|a| a.0.begins_entry()) {
                    return problem(
                        at(i, field),
                        format!(
                            "[[buttons.key]] number {}: a key with a `menu` role may not \
                             begin a digit entry (its presses are menu steps while the menu \
                             is open); give that action to a key without one",
                            i + 1
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    pub fn timing(&self) -> ButtonTiming {
        ButtonTiming {
            debounce_ms: self.debounce_ms,
            long_press_ms: self.long_press_ms,
        }
    }

    /// Key i's meaning, in the order of the `[[buttons.key]]` tables.
    pub fn keymaps(&self) -> Vec<KeyMap> {
        self.key
            .iter()
            .map(|k| KeyMap {
                press: k.press.map(|a| a.0),
                long: k.long.map(|a| a.0),
                menu: k.menu.map(|r| r.0),
            })
            .collect()
    }
}
