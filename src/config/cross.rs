//! The checks that span sections: pins the hardware sections share, and
//! the boards `[[boards]]` names against the seats `[game]` gives.

use super::Config;
use crate::core::BLIND_BOARD;
use crate::display::{DisplayConfig, FaceKind};
use crate::keys::ButtonsConfig;
use crate::sensors::{SensorsConfig, SourceKind};
use crate::text::key::KeyProblem;

/// What serde cannot check, across the hardware sections: pins that
/// clash (the matrix, the clock modules and the keys share the header),
/// keys without a place on this source.
pub fn pins(
    sensors: &SensorsConfig,
    buttons: &ButtonsConfig,
    display: &DisplayConfig,
) -> Result<(), KeyProblem> {
    let mut used: Vec<(u8, String)> = Vec::new();
    let mut take = |pin: u8, what: String, path: &[&str]| -> Result<(), KeyProblem> {
        if pin > 27 {
            return Err(KeyProblem::at(
                path,
                format!("{what}: BCM pin {pin} is not on the 40-pin header (0–27)"),
            ));
        }
        if let Some((_, other)) = used.iter().find(|(p, _)| *p == pin) {
            return Err(KeyProblem::at(
                path,
                format!("{what}: BCM pin {pin} is already {other}"),
            ));
        }
        used.push((pin, what));
        Ok(())
    };
    if sensors.source == SourceKind::Matrix {
        for (i, &pin) in sensors.matrix.drive.iter().enumerate() {
            take(
                pin,
                format!("[sensors.matrix] drive line {i}"),
                &["sensors", "matrix", "drive"],
            )?;
        }
        for (i, &pin) in sensors.matrix.sense.iter().enumerate() {
            take(
                pin,
                format!("[sensors.matrix] sense line {i}"),
                &["sensors", "matrix", "sense"],
            )?;
        }
    }
    if display.faces.contains(&FaceKind::Tm1637) {
        let t = &display.tm1637;
        for (pin, what, key) in [
            (t.white_clk, "White's CLK", "white_clk"),
            (t.white_dio, "White's DIO", "white_dio"),
            (t.black_clk, "Black's CLK", "black_clk"),
            (t.black_dio, "Black's DIO", "black_dio"),
        ] {
            take(
                pin,
                format!("[display.tm1637] {what}"),
                &["display", "tm1637", key],
            )?;
        }
    }
    if buttons.key.len() > 16 {
        return Err(KeyProblem::at(
            &["buttons", "key", "16"],
            format!("[buttons] has {} keys; at most 16", buttons.key.len()),
        ));
    }
    for (i, key) in buttons.key.iter().enumerate() {
        let n = i + 1;
        let index = i.to_string();
        let path = |field: &'static str| -> Vec<&str> { vec!["buttons", "key", &index, field] };
        match (key.pin, key.bit) {
            (Some(pin), None) => take(pin, format!("[[buttons.key]] number {n}"), &path("pin"))?,
            (None, Some(bit)) if bit < 16 => {
                if !matches!(sensors.source, SourceKind::Serial | SourceKind::Trace) {
                    return Err(KeyProblem::at(
                        &path("bit"),
                        format!(
                            "[[buttons.key]] number {n} gives `bit`, a serial scanner's button \
                             (or a trace's `keys`); [sensors] source is neither \"serial\" nor \
                             \"trace\" (give `pin` for a GPIO button)"
                        ),
                    ));
                }
            }
            (None, Some(bit)) => {
                return Err(KeyProblem::at(
                    &path("bit"),
                    format!(
                        "[[buttons.key]] number {n}: bit {bit}; the scanner's button bits are 0–15"
                    ),
                ));
            }
            _ => {
                return Err(KeyProblem::at(
                    &path("pin"),
                    format!(
                        "[[buttons.key]] number {n} needs either `pin` (a GPIO button) or `bit` \
                         (a serial scanner's button), not both or neither"
                    ),
                ));
            }
        }
    }
    buttons.menu_problem()
}

impl Config {
    /// Each `[[boards]]` name is new and plain, and each player moves on
    /// a board there is (or "relay").
    pub(super) fn boards(&self) -> Result<(), KeyProblem> {
        for (i, b) in self.boards.iter().enumerate() {
            let plain = !b.name.is_empty()
                && b.name.len() <= 32
                && b.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
            let problem = if !plain {
                Some(format!(
                    "[[boards]] name = \"{}\": a board's name is 1 to 32 of a-z, 0-9, _ and -, \
                     like \"sighted\"",
                    crate::text::quote::short(&b.name)
                ))
            } else if b.name == BLIND_BOARD {
                Some(
                    "[[boards]] name = \"blind\": the blind player's board is [sensors] and \
                     [board]; [[boards]] names the others, like \"sighted\""
                        .to_string(),
                )
            } else if ["relay", "engine", "lichess"].contains(&b.name.as_str()) {
                Some(format!(
                    "[[boards]] name = \"{0}\": \"{0}\" means moves relayed by hand, chosen \
                     by the engine or played on lichess, no board",
                    b.name
                ))
            } else if self.boards[..i].iter().any(|o| o.name == b.name) {
                Some(format!("[[boards]] name = \"{}\" is given twice", b.name))
            } else {
                None
            };
            let index = i.to_string();
            if let Some(message) = problem {
                return Err(KeyProblem::at(&["boards", &index, "name"], message));
            }
            pins(
                &b.sensors,
                &ButtonsConfig::default(),
                &DisplayConfig::default(),
            )
            .map_err(|p| p.within(&["boards", &index], &format!("[[boards]] \"{}\": ", b.name)))?;
        }
        let names = self.board_names();
        for (key, value) in [
            ("white_moves_on", &self.game.white_moves_on),
            ("black_moves_on", &self.game.black_moves_on),
        ] {
            if !["relay", "engine", "lichess"].contains(&value.as_str())
                && !names.contains(&value.as_str())
            {
                return Err(KeyProblem::at(
                    &["game", key],
                    format!(
                        "[game] {key} = \"{}\": no such board (the boards: {}; or \"relay\" \
                         for moves relayed by hand, \"engine\" for the engine's, or \"lichess\" \
                         for an opponent on lichess)",
                        crate::text::quote::short(value),
                        names.join(", ")
                    ),
                ));
            }
        }
        // The opponent on lichess plays one colour; the other is the
        // blind player's, on a board.
        let seats = [&self.game.white_moves_on, &self.game.black_moves_on];
        if seats.contains(&&"lichess".to_string()) {
            let other = seats.iter().find(|s| s.as_str() != "lichess");
            match other {
                Some(s) if names.contains(&s.as_str()) => {}
                _ => {
                    let key = if self.game.white_moves_on == "lichess" {
                        "black_moves_on"
                    } else {
                        "white_moves_on"
                    };
                    return Err(KeyProblem::at(
                        &["game", key],
                        format!(
                            "[game] {key}: against an opponent on lichess, the other player \
                             moves on a board (like \"{BLIND_BOARD}\"); lichess gives each his \
                             colour"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Config {
    /// `[lichess]`'s values, each at its key.
    pub(super) fn lichess_values(&self) -> Result<(), KeyProblem> {
        match self.lichess.problems().into_iter().next() {
            Some((key, message)) => Err(KeyProblem::at(
                &["lichess", key],
                format!("[lichess] {key}: {message}"),
            )),
            None => Ok(()),
        }
    }

    /// `[engine]`'s values, each at its key (whether its program starts
    /// is `check-config`'s question: it runs the engine).
    pub(super) fn engine_values(&self) -> Result<(), KeyProblem> {
        match self.engine.problems().into_iter().next() {
            Some((key, message)) => Err(KeyProblem::at(
                &["engine", key],
                format!("[engine] {key}: {message}"),
            )),
            None => Ok(()),
        }
    }
}

impl Config {
    /// Rated play (`[game] tournament = true`, Art. 11.3: no advice, no
    /// engine): no seat for the engine or an opponent on lichess, and no
    /// key that asks the engine (a hint, an evaluation, a threat, a
    /// takeback, a review).
    pub(super) fn fair_play(&self) -> Result<(), KeyProblem> {
        use crate::keys::Action;
        if !self.game.tournament {
            return Ok(());
        }
        for (key, value) in [
            ("white_moves_on", &self.game.white_moves_on),
            ("black_moves_on", &self.game.black_moves_on),
        ] {
            if value == "engine" || value == "lichess" {
                return Err(KeyProblem::at(
                    &["game", key],
                    format!(
                        "[game] {key} = \"{value}\": in rated play (tournament = true) both \
                         players sit at the board, their moves on a board or relayed; no engine \
                         and no opponent on lichess (Art. 11.3)"
                    ),
                ));
            }
        }
        for (i, key) in self.buttons.key.iter().enumerate() {
            let index = i.to_string();
            for (field, action) in [("press", key.press), ("long", key.long)] {
                let Some(action) = action.map(|a| a.0) else {
                    continue;
                };
                let name = match action {
                    Action::Hint => "hint",
                    Action::Evaluation => "evaluation",
                    Action::TakeBack => "takeback",
                    Action::Review => "review",
                    Action::Threat => "threat",
                    _ => continue,
                };
                return Err(KeyProblem::at(
                    &["buttons", "key", &index, field],
                    format!(
                        "[[buttons.key]] number {}: {field} = \"{name}\" asks the engine, \
                         which rated play (tournament = true) does not allow (Art. 11.3)",
                        i + 1
                    ),
                ));
            }
        }
        Ok(())
    }
}
