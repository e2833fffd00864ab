//! Turning moves, squares and board states into the words that are spoken.
//!
//! Pure functions over a [`Vocabulary`]: no word is written in code.

use shakmaty::{
    CastlingSide, Chess, Color, KnownOutcome, Move, Piece, Position, Role, Square,
    san::{San, SanPlus, Suffix},
};

use serde::Deserialize;

use super::vocabulary::{FileNaming, Vocabulary};
use crate::core::laws::Reason;
pub use crate::core::notices::{
    MenuItem, MenuNotice, Notice, OnlineNotice, PracticeAct, PracticeNotice, Rematch,
};
use crate::core::settings::Strength;

/// How a move is announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// SAN order: piece, disambiguation, capture word, destination, suffix.
    /// "Springer Felix drei".
    #[default]
    Short,
    /// Piece, from-square, to or takes, destination: tells the player where
    /// to find the piece. "Springer Gustav eins nach Felix drei".
    Long,
}

/// The announcement style of each player's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Styles {
    pub white: Style,
    pub black: Style,
}

impl Styles {
    pub fn both(style: Style) -> Styles {
        Styles {
            white: style,
            black: style,
        }
    }

    pub fn of(&self, color: Color) -> Style {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// Fills `{name}` placeholders in a template.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// `text` with its first letter capital, to begin a sentence.
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Composes spoken phrases in one language.
#[derive(Debug, Clone)]
pub struct Phrasebook {
    pub words: Vocabulary,
    pub naming: FileNaming,
    pub styles: Styles,
}

impl Default for Phrasebook {
    fn default() -> Self {
        Phrasebook::new(Vocabulary::fide())
    }
}

impl Phrasebook {
    /// The same file naming and styles in the built-in language `name`;
    /// `None` when there is no such built-in language.
    pub fn in_language(&self, name: &str) -> Option<Phrasebook> {
        let words = Vocabulary::built_in(name)?.ok()?;
        Some(Phrasebook {
            words,
            naming: self.naming,
            styles: self.styles,
        })
    }

    /// FIDE file names and the short style for both players.
    pub fn new(words: Vocabulary) -> Phrasebook {
        Phrasebook {
            words,
            naming: FileNaming::Fide,
            styles: Styles::default(),
        }
    }

    pub fn with_naming(mut self, naming: FileNaming) -> Phrasebook {
        self.naming = naming;
        self
    }

    pub fn with_styles(mut self, styles: Styles) -> Phrasebook {
        self.styles = styles;
        self
    }

    /// "Felix", "F" or "Foxtrot", as configured.
    pub fn file(&self, file: shakmaty::File) -> &str {
        self.words.file(self.naming, file)
    }

    /// "Felix drei".
    pub fn square(&self, sq: Square) -> String {
        format!("{} {}", self.file(sq.file()), self.words.rank(sq.rank()))
    }

    pub fn piece(&self, role: Role) -> &str {
        self.words.piece(role)
    }

    pub fn color(&self, color: Color) -> &str {
        self.words.color(color)
    }

    /// The announcement of `m`, played in `before`, in the style configured
    /// for the player who made it.
    ///
    /// Short: piece, disambiguation, capture word, destination, then
    /// promotion and check or mate. "Springer Felix drei", "Bauer Eva
    /// schlägt David fünf", "Kurze Rochade".
    /// Long: piece, from-square, "nach" or the capture word, destination.
    /// "Springer Gustav eins nach Felix drei".
    pub fn move_text(&self, before: &Chess, m: Move) -> String {
        let san_plus = SanPlus::from_move(before.clone(), m);
        let mut text = match (self.styles.of(before.turn()), san_plus.san) {
            (Style::Long, San::Normal { .. }) => self.long_text(m),
            _ => self.san_text(&san_plus.san, m.is_en_passant()),
        };
        self.push_suffix(&mut text, san_plus.suffix);
        text
    }

    /// The move in the long form whatever the configured style, for the
    /// player who must make it on his own board: "Springer Gustav acht
    /// nach Felix sechs". Castling stays "Kurze Rochade".
    pub fn long_move_text(&self, before: &Chess, m: Move) -> String {
        let san_plus = SanPlus::from_move(before.clone(), m);
        let mut text = match san_plus.san {
            San::Normal { .. } => self.long_text(m),
            _ => self.san_text(&san_plus.san, m.is_en_passant()),
        };
        self.push_suffix(&mut text, san_plus.suffix);
        text
    }

    fn long_text(&self, m: Move) -> String {
        let w = &self.words;
        let mut parts: Vec<String> = vec![w.piece(m.role()).to_string()];
        if let Some(from) = m.from() {
            parts.push(self.square(from));
        }
        parts.push(if m.is_capture() {
            w.moves.capture.clone()
        } else {
            w.moves.to.clone()
        });
        parts.push(self.square(m.to()));
        if m.is_en_passant() {
            parts.push(w.moves.en_passant.clone());
        }
        if let Some(promoted) = m.promotion() {
            parts.push(fill(&w.moves.promotion, &[("piece", w.piece(promoted))]));
        }
        parts.join(" ")
    }

    fn push_suffix(&self, text: &mut String, suffix: Option<Suffix>) {
        let w = &self.words.moves;
        let word = match suffix {
            Some(Suffix::Check) => &w.check,
            Some(Suffix::Checkmate) => &w.checkmate,
            None => return,
        };
        text.push_str(&w.suffix_separator);
        text.push_str(word);
    }

    fn san_text(&self, san: &San, en_passant: bool) -> String {
        let w = &self.words;
        let mut parts: Vec<String> = Vec::new();
        match *san {
            San::Castle(CastlingSide::KingSide) => parts.push(w.moves.castle_short.clone()),
            San::Castle(CastlingSide::QueenSide) => parts.push(w.moves.castle_long.clone()),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                parts.push(w.piece(role).to_string());
                if let Some(file) = file {
                    parts.push(self.file(file).to_string());
                }
                if let Some(rank) = rank {
                    parts.push(w.rank(rank).to_string());
                }
                if capture {
                    parts.push(w.moves.capture.clone());
                }
                parts.push(self.square(to));
                if en_passant {
                    parts.push(w.moves.en_passant.clone());
                }
                if let Some(promoted) = promotion {
                    parts.push(fill(&w.moves.promotion, &[("piece", w.piece(promoted))]));
                }
            }
            San::Put { role, to } => {
                parts.push(w.piece(role).to_string());
                parts.push(self.square(to));
            }
            San::Null => {}
        }
        parts.join(" ")
    }

    /// "Weiß Springer Gustav eins".
    pub fn piece_on_square(&self, piece: Piece, sq: Square) -> String {
        fill(
            &self.words.phrases.piece_on_square,
            &[
                ("color", self.color(piece.color)),
                ("piece", self.piece(piece.role)),
                ("square", &self.square(sq)),
            ],
        )
    }

    /// "12. Weiß: Springer Felix drei": a move with its number and colour,
    /// as said in answer to `repeat`.
    pub fn numbered_move(&self, number: u32, before: &Chess, m: Move) -> String {
        fill(
            &self.words.phrases.last_move,
            &[
                ("number", &number.to_string()),
                ("color", self.color(before.turn())),
                ("move", &self.move_text(before, m)),
            ],
        )
    }

    /// "Zug 12, Weiß am Zug."
    pub fn move_number(&self, pos: &Chess) -> String {
        fill(
            &self.words.phrases.move_number,
            &[
                ("number", &pos.fullmoves().to_string()),
                ("color", self.color(pos.turn())),
            ],
        )
    }

    /// One rank read out from the a-file to the h-file: what stands where.
    pub fn rank_scan(&self, pos: &Chess, rank: shakmaty::Rank) -> String {
        let squares = shakmaty::File::ALL.map(|f| Square::from_coords(f, rank));
        fill(
            &self.words.phrases.rank_scan,
            &[
                ("rank", self.words.rank(rank)),
                ("pieces", &self.scan(pos, &squares)),
            ],
        )
    }

    /// One file read out from the first rank to the eighth.
    pub fn file_scan(&self, pos: &Chess, file: shakmaty::File) -> String {
        let squares = shakmaty::Rank::ALL.map(|r| Square::from_coords(file, r));
        fill(
            &self.words.phrases.file_scan,
            &[
                ("file", self.file(file)),
                ("pieces", &self.scan(pos, &squares)),
            ],
        )
    }

    fn scan(&self, pos: &Chess, squares: &[Square]) -> String {
        let pieces: Vec<String> = squares
            .iter()
            .filter_map(|&sq| {
                pos.board()
                    .piece_at(sq)
                    .map(|p| self.piece_on_square(p, sq))
            })
            .collect();
        if pieces.is_empty() {
            self.words.phrases.scan_empty.clone()
        } else {
            pieces.join(&self.words.phrases.list_separator)
        }
    }

    /// What stands on `sq` in `pos`.
    pub fn square_query(&self, pos: &Chess, sq: Square) -> String {
        match pos.board().piece_at(sq) {
            Some(piece) => self.piece_on_square(piece, sq),
            None => fill(
                &self.words.phrases.empty_square,
                &[("square", &self.square(sq))],
            ),
        }
    }

    /// The whole position as piece lists per side, king first, then queen,
    /// rooks, bishops, knights and pawns, each from a1 towards h8.
    pub fn position(&self, pos: &Chess) -> String {
        let p = &self.words.phrases;
        let mut sides = Vec::new();
        for color in [Color::White, Color::Black] {
            let mut pieces = Vec::new();
            for role in [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                for sq in pos.board().by_piece(Piece { color, role }) {
                    pieces.push(format!("{} {}", self.piece(role), self.square(sq)));
                }
            }
            sides.push(fill(
                &p.position_side,
                &[
                    ("color", self.color(color)),
                    ("pieces", &pieces.join(&p.list_separator)),
                ],
            ));
        }
        let to_move = fill(&p.to_move, &[("color", self.color(pos.turn()))]);
        format!("{}. {}. {}.", sides[0], sides[1], to_move)
    }

    /// Guidance for a board that differs from the game: which squares to
    /// empty, and which piece belongs on which empty square.
    pub fn mismatch(&self, missing: &[(Square, Piece)], extra: &[Square]) -> String {
        let p = &self.words.phrases;
        let mut parts = vec![p.mismatch.clone()];
        for &sq in extra {
            parts.push(fill(&p.mismatch_remove, &[("square", &self.square(sq))]));
        }
        for &(sq, piece) in missing {
            parts.push(fill(
                &p.mismatch_place,
                &[
                    ("color", self.color(piece.color)),
                    ("piece", self.piece(piece.role)),
                    ("square", &self.square(sq)),
                ],
            ));
        }
        parts.join(" ")
    }

    /// An illegal move: what to do, then the squares to put right.
    pub fn illegal(&self, missing: &[(Square, Piece)], extra: &[Square]) -> String {
        let guidance = self.mismatch(missing, extra);
        let details = guidance
            .strip_prefix(self.words.phrases.mismatch.as_str())
            .unwrap_or(&guidance)
            .trim_start();
        if details.is_empty() {
            self.words.phrases.illegal.clone()
        } else {
            format!("{} {}", self.words.phrases.illegal, details)
        }
    }

    /// A time as the clock is read aloud: hours and minutes, seconds only
    /// under ten minutes ("eine Stunde 12 Minuten", "4 Minuten 5 Sekunden").
    /// Seconds are whole seconds left, rounded down.
    pub fn duration(&self, ms: u64) -> String {
        let p = &self.words.phrases;
        self.duration_as(ms, &p.hour, &p.minute)
    }

    /// A duration with `hour` and `minute` for one hour and one minute.
    fn duration_as(&self, ms: u64, hour: &str, minute: &str) -> String {
        let p = &self.words.phrases;
        let unit = |n: u64, one: &str, many: &str| {
            if n == 1 {
                one.to_string()
            } else {
                fill(many, &[("n", &n.to_string())])
            }
        };
        let total_s = ms / 1000;
        let (h, m, s) = (total_s / 3600, total_s / 60 % 60, total_s % 60);
        let mut parts = Vec::new();
        if h > 0 {
            parts.push(unit(h, hour, &p.hours));
        }
        if m > 0 {
            parts.push(unit(m, minute, &p.minutes));
        }
        if total_s < 600 && (s > 0 || parts.is_empty()) {
            parts.push(unit(s, &p.second, &p.seconds));
        }
        parts.join(" ")
    }

    /// The number of moves completed (E2.9d; none before the first), both
    /// players' times, and the moves to the next control if the player
    /// to move has one.
    pub fn times(
        &self,
        completed: u32,
        white_ms: u64,
        black_ms: u64,
        moves_to_control: Option<u32>,
    ) -> String {
        let p = &self.words.phrases;
        let times = fill(
            &p.times,
            &[
                ("white", self.color(Color::White)),
                ("white_time", &self.duration(white_ms)),
                ("black", self.color(Color::Black)),
                ("black_time", &self.duration(black_ms)),
            ],
        );
        let times = if completed == 0 {
            times
        } else {
            let n = completed.to_string();
            format!("{} {times}", fill(&p.moves_completed, &[("moves", &n)]))
        };
        match moves_to_control {
            None => times,
            Some(1) => format!("{times} {}", p.one_move_to_control),
            Some(n) => format!(
                "{times} {}",
                fill(&p.moves_to_control, &[("moves", &n.to_string())])
            ),
        }
    }

    /// A low-time warning for `color`'s own clock.
    pub fn time_warning(&self, color: Color, ms: u64) -> String {
        fill(
            &self.words.phrases.time_warning,
            &[("color", self.color(color)), ("time", &self.duration(ms))],
        )
    }

    /// Time given to `color` as a penalty for the opponent.
    pub fn time_added(&self, color: Color, ms: u64) -> String {
        fill(
            &self.words.phrases.time_added,
            &[("color", self.color(color)), ("time", &self.duration(ms))],
        )
    }

    /// The moves asked for again (`repeat`), each already said with its
    /// number, oldest first; or that there is none yet.
    pub fn moves_again(&self, numbered: &[String]) -> String {
        let p = &self.words.phrases;
        if numbered.is_empty() {
            p.no_move_yet.clone()
        } else {
            numbered.join(&p.moves_separator)
        }
    }

    /// `color` offers a draw.
    pub fn draw_offer(&self, color: Color) -> String {
        fill(
            &self.words.phrases.draw_offer,
            &[("color", self.color(color))],
        )
    }

    /// `color` touched a piece and so rejected the draw offered to him
    /// (9.1b; today 9.1.2.1).
    pub fn draw_declined(&self, color: Color) -> String {
        fill(
            &self.words.phrases.draw_declined,
            &[("color", self.color(color))],
        )
    }

    /// `color` has not offered a draw: said to his opponent, who would
    /// reject one (9.1b).
    pub fn no_draw_offer(&self, color: Color) -> String {
        fill(
            &self.words.phrases.no_draw_offer,
            &[("color", self.color(color))],
        )
    }

    /// `color` said j'adoube, and is not to move: only the player having
    /// the move adjusts (4.2; today 4.2.1).
    pub fn adjust_refused(&self, color: Color) -> String {
        fill(
            &self.words.phrases.adjust_refused,
            &[("color", self.color(color))],
        )
    }

    /// A draw agreed before both players have made a move (today 5.2.3).
    pub fn draw_too_early(&self) -> String {
        self.words.phrases.draw_too_early.clone()
    }

    /// A draw claimed after touching a piece on that move (9.4).
    pub fn claim_after_touch(&self) -> String {
        self.words.phrases.claim_after_touch.clone()
    }

    /// Under the 2008 Laws, the promotion on `square` whose new piece went
    /// down before the pawn came off is not made until the piece is
    /// released there again (4.6c).
    pub fn promotion_unmade(&self, square: Square) -> String {
        fill(
            &self.words.phrases.promotion_unmade,
            &[("square", &self.square(square))],
        )
    }

    /// `color`'s flag has fallen.
    pub fn flag(&self, color: Color) -> String {
        fill(&self.words.phrases.flag, &[("color", self.color(color))])
    }

    /// The arbiter set the clock; `times` says both times as they are now.
    pub fn clock_set(&self, times: &str) -> String {
        format!("{} {times}", self.words.phrases.clock_set)
    }

    /// A pawn on `square` waits for its promotion piece.
    pub fn promotion_pending(&self, square: Square) -> String {
        fill(
            &self.words.phrases.promotion_pending,
            &[("square", &self.square(square))],
        )
    }

    /// Why a relayed move cannot be played, and whose turn it is:
    /// "The relayed move is not possible. The king would be in check.
    /// White to move."
    pub fn refusal(&self, why: crate::core::relay::Unplayable, to_move: Color) -> String {
        use crate::core::relay::Unplayable as U;
        let r = &self.words.refusal;
        let reason = match why {
            U::Empty(square) => fill(&r.empty, &[("square", &self.square(square))]),
            U::Turn { square, owner } => fill(
                &r.turn,
                &[
                    ("square", &self.square(square)),
                    ("owner", self.color(owner)),
                ],
            ),
            U::OwnPiece(square) => fill(&r.own_piece, &[("square", &self.square(square))]),
            U::Check => r.check.clone(),
            U::Castling => r.castling.clone(),
            U::Promotion => r.promotion.clone(),
            U::Blocked { role, square } | U::MovesSo { role, square } => fill(
                if matches!(why, U::Blocked { .. }) {
                    &r.blocked
                } else {
                    &r.moves_otherwise
                },
                &[
                    ("piece", self.piece(role)),
                    ("square", &self.square(square)),
                ],
            ),
            U::Ambiguous => r.ambiguous.clone(),
            U::NoMove => r.no_move.clone(),
        };
        format!(
            "{} {} {}",
            self.words.phrases.relay_refused,
            reason,
            fill(&r.to_move, &[("color", self.color(to_move))])
        )
    }

    /// The engine's best move for the player, `m` in `before`.
    pub fn hint(&self, before: &Chess, m: Move) -> String {
        fill(
            &self.words.practice.hint,
            &[("move", &self.move_text(before, m))],
        )
    }

    /// The material balance in words: "Niemand hat etwas mehr.",
    /// or for each side what it has more ("Weiß hat eine Qualität und
    /// 2 Bauern mehr.").
    pub fn material(&self, balance: &crate::core::material::Balance) -> String {
        use crate::core::material::Thing;
        let p = &self.words.phrases;
        if balance.is_even() {
            return p.material_even.clone();
        }
        let thing = |(thing, n): &(Thing, u32)| {
            let (one, many) = match thing {
                Thing::Queen => (&p.material_queen, &p.material_queens),
                Thing::Rook => (&p.material_rook, &p.material_rooks),
                Thing::Exchange => (&p.material_exchange, &p.material_exchanges),
                Thing::Piece => (&p.material_piece, &p.material_pieces),
                Thing::Pawn => (&p.material_pawn, &p.material_pawns),
            };
            if *n == 1 {
                one.clone()
            } else {
                fill(many, &[("n", &n.to_string())])
            }
        };
        [Color::White, Color::Black]
            .into_iter()
            .filter(|&c| !balance.more.get(c).is_empty())
            .map(|c| {
                let things: Vec<String> = balance.more.get(c).iter().map(thing).collect();
                let joined = match things.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} {} {last}", rest.join(", "), p.material_and)
                    }
                    _ => things.concat(),
                };
                fill(
                    &p.material_more,
                    &[("color", self.color(c)), ("things", &joined)],
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The first hint in a position: the piece that moves, on its square
    /// ("Tipp: Springer auf Gustav eins."); the king for castling.
    pub fn hint_piece(&self, m: Move) -> String {
        fill(
            &self.words.practice.hint_piece,
            &[
                ("piece", self.piece(m.role())),
                ("square", &self.square(m.from().unwrap_or(m.to()))),
            ],
        )
    }

    /// Who stands better, in words.
    pub fn standing(&self, standing: crate::core::analysis::Standing) -> String {
        use crate::core::analysis::Standing;
        let p = &self.words.practice;
        let (template, side, n) = match standing {
            Standing::Equal => (&p.equal, None, 0),
            Standing::Slightly(c) => (&p.slightly, Some(c), 0),
            Standing::Clearly(c) => (&p.clearly, Some(c), 0),
            Standing::Winning(c) => (&p.winning, Some(c), 0),
            Standing::Mates(c, 1) => (&p.mates_next, Some(c), 1),
            Standing::Mates(c, n) => (&p.mates, Some(c), n),
        };
        fill(
            template,
            &[
                ("side", side.map_or("", |c| self.color(c))),
                ("n", &n.to_string()),
            ],
        )
    }

    /// A practice notice with no values.
    /// What the spoken menu says without values.
    pub fn menu(&self, notice: MenuNotice) -> String {
        let m = &self.words.menu;
        match notice {
            MenuNotice::Closed => &m.closed,
            MenuNotice::Saved => &m.saved,
            MenuNotice::UnderWay => &m.under_way,
            MenuNotice::NextGame => &m.next_game,
            MenuNotice::Discarded => &m.discarded,
            MenuNotice::Person => &m.person,
            MenuNotice::NoClock => &m.no_clock,
            MenuNotice::OwnTime => &m.own_time,
        }
        .clone()
    }

    /// A menu item's name ("Zeit").
    pub fn menu_item(&self, item: MenuItem) -> &str {
        let m = &self.words.menu;
        match item {
            MenuItem::Practice => &m.practice,
            MenuItem::Opponent => &m.opponent,
            MenuItem::TimeControl => &m.time_control,
            MenuItem::Color => &m.color,
            MenuItem::Rate => &m.rate,
            MenuItem::Volume => &m.volume,
            MenuItem::Language => &m.language,
        }
    }

    /// An item reached, with its value ("Zeit: ohne Uhr."); `opened`:
    /// the first item as the menu opens ("Menü. Gegner: …").
    pub fn menu_line(&self, item: MenuItem, value: &str, opened: bool) -> String {
        let line = fill(
            &self.words.menu.item,
            &[("item", self.menu_item(item)), ("value", value)],
        );
        if opened {
            format!("{} {line}", self.words.menu.open)
        } else {
            line
        }
    }

    /// A practice question as the menu's practice item names it.
    pub fn menu_practice(&self, act: PracticeAct) -> String {
        let m = &self.words.menu;
        match act {
            PracticeAct::Hint => &m.practice_hint,
            PracticeAct::Evaluation => &m.practice_evaluation,
            PracticeAct::TakeBack => &m.practice_takeback,
            PracticeAct::Review => &m.practice_review,
            PracticeAct::Material => &m.practice_material,
            PracticeAct::Threat => &m.practice_threat,
            PracticeAct::Opening => &m.practice_opening,
        }
        .clone()
    }

    /// A value chosen, said back.
    pub fn menu_chosen(&self, item: MenuItem, value: &str) -> String {
        fill(
            &self.words.menu.chosen,
            &[("item", self.menu_item(item)), ("value", value)],
        )
    }

    /// The changes said back, and the question whether to save them.
    pub fn menu_confirm(&self, changes: &[(MenuItem, String)]) -> String {
        let said: Vec<String> = changes
            .iter()
            .map(|(item, value)| format!("{} {value}", self.menu_item(*item)))
            .collect();
        fill(&self.words.menu.confirm, &[("choices", &said.join(", "))])
    }

    /// The engine at a strength: a step with the rough human strength it
    /// plays at ("Maschine, Stufe 3, etwa 1400"), or the engine's own
    /// Elo or skill level.
    pub fn menu_engine(&self, strength: Strength) -> String {
        let m = &self.words.menu;
        match strength {
            Strength::Step(n) => {
                let step = crate::engine::strength::step_of(n);
                let what = match step.map(|s| (s.rating, s.skill)) {
                    Some((Some(rating), _)) => {
                        fill(&m.step_rated, &[("rating", &rating.to_string())])
                    }
                    Some((None, Some(_))) => m.step_beginner.clone(),
                    _ => m.step_full.clone(),
                };
                fill(
                    &m.engine_step,
                    &[("n", &n.to_string()), ("strength", &what)],
                )
            }
            Strength::Elo(elo) => fill(&m.engine_elo, &[("n", &elo.to_string())]),
            Strength::Level(level) => fill(&m.engine_level, &[("n", &level.to_string())]),
        }
    }

    /// The sentence a game begins with: the opponent, the blind player's
    /// colour and the clock.
    pub fn game_begins(
        &self,
        opponent: &crate::core::settings::Opponent,
        color: Color,
        control: Option<&crate::core::clock::TimeControl>,
    ) -> String {
        use crate::core::settings::Opponent;
        let m = &self.words.menu;
        let who = match opponent {
            Opponent::Person => m.person.clone(),
            Opponent::Engine(strength) => self.menu_engine(*strength),
            Opponent::Lichess(way) => self.menu_lichess(way),
        };
        let clock = match control {
            Some(c) => self.menu_control(c),
            None => m.no_clock.clone(),
        };
        fill(
            &m.begins,
            &[
                ("opponent", &capitalized(&who)),
                ("color", self.color(color)),
                ("clock", &capitalized(&clock)),
            ],
        )
    }

    /// An opponent on lichess, found `way`.
    pub fn menu_lichess(&self, way: &crate::core::settings::OnlineWay) -> String {
        use crate::core::settings::OnlineWay;
        let m = &self.words.menu;
        let rated = if way.rated() { &m.rated } else { &m.casual };
        match way {
            OnlineWay::Seek { .. } => fill(&m.online_seek, &[("rated", rated)]),
            OnlineWay::Ai { level } => fill(&m.online_ai, &[("n", &level.to_string())]),
            OnlineWay::Friend { name, .. } => {
                fill(&m.online_friend, &[("name", name), ("rated", rated)])
            }
            OnlineWay::Accept => m.online_accept.clone(),
        }
    }

    /// A time control: each period ("40 Züge in einer Stunde 30 Minuten,
    /// dann 30 Minuten"), then what each move earns, said once when every
    /// period gives the same.
    pub fn menu_control(&self, control: &crate::core::clock::TimeControl) -> String {
        use crate::core::clock::Bonus;
        let m = &self.words.menu;
        let mut said = control
            .periods()
            .iter()
            .map(|p| match p.moves {
                Some(moves) => {
                    let time = self.duration_as(p.ms, &m.period_hour, &m.period_minute);
                    fill(
                        &m.period_moves,
                        &[("moves", &moves.to_string()), ("time", &time)],
                    )
                }
                None => self.duration(p.ms),
            })
            .collect::<Vec<_>>()
            .join(&format!(", {} ", m.then));
        let bonuses: Vec<Bonus> = control.periods().iter().map(|p| p.bonus).collect();
        if let Some(&first) = bonuses.first()
            && bonuses.iter().all(|&b| b == first)
        {
            let template = match first {
                Bonus::None => None,
                Bonus::Increment(_) => Some(&m.increment),
                Bonus::Delay(_) | Bonus::Bronstein(_) => Some(&m.delay),
            };
            if let Some(template) = template {
                said.push(' ');
                said.push_str(&fill(template, &[("time", &self.duration(first.ms()))]));
            }
        }
        said
    }

    /// What a move earns, alone ("plus 10 Sekunden pro Zug").
    pub fn menu_increment(&self, ms: u64) -> String {
        fill(&self.words.menu.increment, &[("time", &self.duration(ms))])
    }

    /// The voice's rate ("minus 20").
    pub fn menu_rate(&self, rate: i32) -> String {
        if rate < 0 {
            fill(
                &self.words.menu.minus,
                &[("n", &rate.unsigned_abs().to_string())],
            )
        } else {
            rate.to_string()
        }
    }

    /// The volume ("70 Prozent").
    pub fn menu_volume(&self, percent: u32) -> String {
        fill(&self.words.menu.percent, &[("n", &percent.to_string())])
    }

    /// A language by its name in this language; a language file by its
    /// name without folder and `.toml`.
    pub fn menu_language(&self, name: &str) -> String {
        self.words
            .menu
            .languages
            .get(name)
            .cloned()
            .unwrap_or_else(|| {
                std::path::Path::new(name)
                    .file_stem()
                    .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned())
            })
    }

    pub fn practice(&self, notice: PracticeNotice) -> String {
        let p = &self.words.practice;
        match notice {
            PracticeNotice::NotPractice => &p.not_practice,
            PracticeNotice::EngineToMove => &p.engine_to_move,
            PracticeNotice::DrawDeclined => &p.draw_declined,
            PracticeNotice::NothingToTakeBack => &p.nothing_to_take_back,
            PracticeNotice::ReviewAfterGame => &p.review_after_game,
            PracticeNotice::Reviewing => &p.reviewing,
            PracticeNotice::NoMistakes => &p.no_mistakes,
            PracticeNotice::NoMoreMistakes => &p.no_more_mistakes,
            PracticeNotice::NoThreat => &p.no_threat,
            PracticeNotice::InCheck => &p.in_check,
            PracticeNotice::ReviewEnded => &p.review_ended,
        }
        .clone()
    }

    /// The opening's name: its family in words where it is one said so,
    /// and its ECO code ("B07": the synthesizers say the letter's name and
    /// the digits; the letter as the language file writes it for that);
    /// that none is known when `eco` is none.
    pub fn opening(
        &self,
        eco: Option<crate::core::opening::Eco>,
        family: Option<crate::core::opening::Family>,
    ) -> String {
        use crate::core::opening::Family;
        let o = &self.words.openings;
        let Some(eco) = eco else {
            return o.unknown.clone();
        };
        let letter = match eco.volume() {
            'A' => &o.volume_a,
            'B' => &o.volume_b,
            'C' => &o.volume_c,
            'D' => &o.volume_d,
            _ => &o.volume_e,
        };
        let code = format!("{letter}{:02}", eco.number());
        let name = family.map(|family| match family {
            Family::English => &o.english,
            Family::Dutch => &o.dutch,
            Family::Scandinavian => &o.scandinavian,
            Family::Sicilian => &o.sicilian,
            Family::French => &o.french,
            Family::Vienna => &o.vienna,
            Family::KingsGambit => &o.kings_gambit,
            Family::Russian => &o.russian,
            Family::Scotch => &o.scotch,
            Family::Italian => &o.italian,
            Family::TwoKnights => &o.two_knights,
            Family::FourKnights => &o.four_knights,
            Family::Spanish => &o.spanish,
            Family::QueensGambit => &o.queens_gambit,
            Family::Slav => &o.slav,
            Family::QueensGambitAccepted => &o.queens_gambit_accepted,
            Family::QueensGambitDeclined => &o.queens_gambit_declined,
            Family::Catalan => &o.catalan,
            Family::KingsIndian => &o.kings_indian,
            Family::QueensIndian => &o.queens_indian,
        });
        match name {
            Some(name) => fill(&o.named, &[("name", name), ("eco", &code)]),
            None => fill(&o.coded, &[("eco", &code)]),
        }
    }

    /// One of the player's mistakes in the review: move `number`, `m`
    /// played in `before`, what it lost, the better move, and the first
    /// [`LINE_SAID`] moves of the engine's main line after it.
    pub fn mistake(
        &self,
        number: u32,
        before: &Chess,
        m: Move,
        loss: crate::core::analysis::Loss,
        better: Option<Move>,
        line: &[Move],
    ) -> String {
        use crate::core::analysis::Loss;
        let p = &self.words.practice;
        let loss = match loss {
            Loss::AllowsMate => &p.allows_mate,
            Loss::MissesMate => &p.misses_mate,
            Loss::Queen => &p.loses_queen,
            Loss::Rook => &p.loses_rook,
            Loss::Piece => &p.loses_piece,
            Loss::Pawn => &p.loses_pawn,
        };
        let mut said = fill(
            &p.mistake,
            &[
                ("number", &number.to_string()),
                ("move", &self.move_text(before, m)),
                ("loss", loss),
            ],
        );
        if let Some(b) = better {
            said.push_str("; ");
            said.push_str(&fill(&p.better, &[("move", &self.move_text(before, b))]));
            let mut pos = before.clone();
            pos.play_unchecked(b);
            let mut moves = Vec::new();
            for &m in line.iter().take(LINE_SAID) {
                moves.push(self.move_text(&pos, m));
                pos.play_unchecked(m);
            }
            if !moves.is_empty() {
                said.push_str(", ");
                said.push_str(&fill(&p.then, &[("line", &moves.join(", "))]));
            }
        }
        said.push('.');
        said
    }

    /// A mistake of the review stepped to: which of how many, then the
    /// mistake as [`Phrasebook::mistake`] says it.
    pub fn review_step(&self, index: usize, count: usize, mistake: String) -> String {
        let head = fill(
            &self.words.practice.review_step,
            &[("index", &index.to_string()), ("count", &count.to_string())],
        );
        format!("{head} {mistake}")
    }

    /// What the engine threatens: move `m` in `pos` (the engine to move).
    pub fn threat(&self, pos: &Chess, m: Move) -> String {
        fill(
            &self.words.practice.threat,
            &[("move", &self.move_text(pos, m))],
        )
    }

    /// The mistake's position set up as a new game.
    pub fn review_position(&self, number: u32) -> String {
        fill(
            &self.words.practice.review_position,
            &[("number", &number.to_string())],
        )
    }

    /// Who stands better after move `number` of `mover`, in the review.
    pub fn after_move(
        &self,
        number: u32,
        mover: Color,
        standing: crate::core::analysis::Standing,
    ) -> String {
        fill(
            &self.words.practice.after_move,
            &[
                ("number", &number.to_string()),
                ("side", self.color(mover)),
                ("standing", &self.standing(standing)),
            ],
        )
    }

    /// A take-back that cannot be made.
    pub fn take_back_refused(&self) -> String {
        self.words.refusal.take_back.clone()
    }

    /// A notice with no values: which one, by its key in the language file.
    pub fn notice(&self, notice: Notice) -> String {
        let p = &self.words.phrases;
        match notice {
            Notice::NoClock => &p.no_clock,
            Notice::GameOverAlready => &p.game_over_already,
            Notice::ClaimPending => &p.claim_pending,
            Notice::ClaimIncorrect => &p.claim_incorrect,
            Notice::ClaimNotYourMove => &p.claim_not_your_move,
            Notice::ClockPaused => &p.clock_paused,
            Notice::ArbiterCalled => &p.arbiter_called,
            Notice::ArbiterComing => &p.arbiter_coming,
            Notice::ClockResumed => &p.clock_resumed,
            Notice::BoardLost => &p.board_lost,
            Notice::BoardBack => &p.board_back,
            Notice::BrailleLost => &p.braille_lost,
            Notice::BrailleBack => &p.braille_back,
            Notice::QuickplayClaim => &p.quickplay_claim,
            Notice::QuickplayClaimIncorrect => &p.quickplay_claim_incorrect,
            Notice::QuickplayClaimNotHere => &p.quickplay_claim_not_here,
            Notice::QuickplayPostponed => &p.quickplay_postponed,
            Notice::QuickplayRejected => &p.quickplay_rejected,
            Notice::QuickplayWaits => &p.quickplay_waits,
            Notice::NoQuickplayClaim => &p.no_quickplay_claim,
            Notice::FlagClaimIncorrect => &p.flag_claim_incorrect,
            Notice::Restored => &p.restored,
            Notice::TouchViolationCastle => &p.touch_violation_castle,
            Notice::Resumed => &p.resumed,
            Notice::ClocksHeld => &p.clocks_held,
            Notice::NewGame => &p.new_game,
            Notice::NewGameConfirm => &p.new_game_confirm,
            Notice::ResignConfirm => &p.resign_confirm,
            Notice::BoardMatches => &p.board_matches,
            Notice::Held => &p.held,
            Notice::Retraced => &p.retraced,
            Notice::RelayRefused => &p.relay_refused,
            Notice::Adjourned => &p.adjourned,
        }
        .clone()
    }

    /// The touched piece on `square` (a `role`) had to be moved, or
    /// captured (`capture`), and was not (4.3).
    pub fn touch_violation(&self, role: Role, square: Square, capture: bool) -> String {
        let p = &self.words.phrases;
        let template = if capture {
            &p.touch_violation_capture
        } else {
            &p.touch_violation
        };
        fill(
            template,
            &[
                ("piece", self.piece(role)),
                ("square", &self.square(square)),
            ],
        )
    }

    /// A piece released on `square` as part of a legal move (4.6) was
    /// moved elsewhere; `role` is the piece.
    pub fn released_violation(&self, role: Role, square: Square) -> String {
        fill(
            &self.words.phrases.touch_violation_released,
            &[
                ("piece", self.piece(role)),
                ("square", &self.square(square)),
            ],
        )
    }

    /// After time the board was not seen: `moves` may have been made in
    /// `before`, each said in the long form, and how to confirm one.
    pub fn unconfirmed(&self, before: &Chess, moves: &[Move]) -> String {
        let p = &self.words.phrases;
        let said: Vec<String> = moves
            .iter()
            .map(|&m| self.long_move_text(before, m))
            .collect();
        fill(&p.unconfirmed, &[("moves", &said.join(&p.moves_or))])
    }

    /// The game is over: why, and the result. `by`: the player the ending
    /// names (who resigned, whose flag fell).
    pub fn game_over(&self, reason: Reason, outcome: KnownOutcome, by: Option<Color>) -> String {
        let p = &self.words.phrases;
        let drawn = outcome == KnownOutcome::Draw;
        let template = match reason {
            Reason::Checkmate => &p.game_over_checkmate,
            Reason::Stalemate => &p.game_over_stalemate,
            Reason::InsufficientMaterial => &p.game_over_insufficient_material,
            Reason::ThreefoldRepetition => &p.game_over_threefold_repetition,
            Reason::FiftyMoves => &p.game_over_fifty_moves,
            Reason::FivefoldRepetition => &p.game_over_fivefold_repetition,
            Reason::SeventyFiveMoves => &p.game_over_seventy_five_moves,
            Reason::Resignation => &p.game_over_resignation,
            Reason::Agreement => &p.game_over_agreement,
            Reason::Flag if drawn => &p.game_over_flag_draw,
            Reason::Flag => &p.game_over_flag,
            Reason::BothFlags => &p.game_over_both_flags,
            Reason::IllegalMoves if drawn => &p.game_over_illegal_moves_draw,
            Reason::IllegalMoves => &p.game_over_illegal_moves,
            Reason::QuickplayFinish => &p.game_over_quickplay_finish,
            Reason::Abandoned => &self.words.online.game_over_abandoned,
            Reason::Server => &self.words.online.game_over_server,
        };
        let color = by.map(|c| self.color(c)).unwrap_or_default();
        fill(
            template,
            &[("result", self.result(outcome)), ("color", color)],
        )
    }

    /// The server started a game: the opponent (his name, his rating if
    /// he has one) and the blind player's colour.
    pub fn online_game(&self, game: &crate::core::online::OnlineGame) -> String {
        let w = &self.words.online;
        let opponent = game.opponent();
        let rating = opponent.rating.map(|r| r.to_string());
        let template = if rating.is_some() {
            &w.game
        } else {
            &w.game_unrated
        };
        let said = fill(
            template,
            &[
                ("name", opponent.name.as_str()),
                ("rating", rating.as_deref().unwrap_or_default()),
                ("color", self.color(game.color)),
            ],
        );
        let start = if game.chess960 {
            &w.chess960
        } else if game.initial_fen.is_some() {
            &w.from_position
        } else {
            return said;
        };
        format!("{said} {start}")
    }

    /// The words of `said`.
    pub fn in_words(&self, said: &crate::core::said::Said) -> String {
        use crate::core::said::{Joint, Said};
        match said {
            Said::Text(words) => words.clone(),
            Said::Notice(n) => self.notice(*n),
            Said::Practice(n) => self.practice(*n),
            Said::Online(n) => self.online_notice(*n),
            Said::MoveNumber(pos) => self.move_number(pos),
            Said::NumberedMove { number, before, m } => self.numbered_move(*number, before, *m),
            Said::Move { before, m } => self.move_text(before, *m),
            Said::LongMove { before, m } => self.long_move_text(before, *m),
            Said::Times {
                completed,
                white_ms,
                black_ms,
                moves_to_control,
            } => self.times(*completed, *white_ms, *black_ms, *moves_to_control),
            Said::Mismatch { missing, extra } => self.mismatch(missing, extra),
            Said::MovesAgain(moves) => {
                let numbered: Vec<String> = moves.iter().map(|m| self.in_words(m)).collect();
                self.moves_again(&numbered)
            }
            Said::Rank { position, rank } => self.rank_scan(position, *rank),
            Said::File { position, file } => self.file_scan(position, *file),
            Said::Square { position, square } => self.square_query(position, *square),
            Said::Position(position) => self.position(position),
            Said::Material(balance) => self.material(balance),
            Said::DrawOffer(color) => self.draw_offer(*color),
            Said::TimeWarning { color, ms } => self.time_warning(*color, *ms),
            Said::Flag(color) => self.flag(*color),
            Said::TimeAdded { color, ms } => self.time_added(*color, *ms),
            Said::DrawDeclined(color) => self.draw_declined(*color),
            Said::PromotionPending(square) => self.promotion_pending(*square),
            Said::PromotionUnmade(square) => self.promotion_unmade(*square),
            Said::Illegal { missing, extra } => self.illegal(missing, extra),
            Said::Unconfirmed { before, moves } => self.unconfirmed(before, moves),
            Said::EngineTrouble(trouble) => self.engine_trouble(*trouble),
            Said::AdjustRefused(color) => self.adjust_refused(*color),
            Said::DrawTooEarly => self.draw_too_early(),
            Said::NoDrawOffer(color) => self.no_draw_offer(*color),
            Said::ClaimAfterTouch => self.claim_after_touch(),
            Said::Unplayable { why, to_move } => self.refusal(*why, *to_move),
            Said::TakeBackRefused => self.take_back_refused(),
            Said::TouchViolation {
                role,
                square,
                capture,
            } => self.touch_violation(*role, *square, *capture),
            Said::ReleasedViolation { role, square } => self.released_violation(*role, *square),
            Said::ClockSet(times) => {
                let times = times.as_deref().map(|t| self.in_words(t));
                self.clock_set(times.as_deref().unwrap_or_default())
            }
            Said::GameBegins {
                opponent,
                color,
                control,
            } => self.game_begins(opponent, *color, control.as_ref()),
            Said::GameOver {
                reason,
                outcome,
                by,
            } => self.game_over(*reason, *outcome, *by),
            Said::Opening { eco, family } => self.opening(*eco, *family),
            Said::Hint { before, m } => self.hint(before, *m),
            Said::HintPiece(m) => self.hint_piece(*m),
            Said::Threat { position, m } => self.threat(position, *m),
            Said::Standing(standing) => self.standing(*standing),
            Said::AfterMove {
                number,
                mover,
                standing,
            } => self.after_move(*number, *mover, *standing),
            Said::ReviewStep {
                index,
                count,
                number,
                before,
                played,
                loss,
                better,
                line,
            } => {
                let said = self.mistake(*number, before, *played, *loss, *better, line);
                self.review_step(*index, *count, said)
            }
            Said::ReviewPosition(number) => self.review_position(*number),
            Said::OnlineGame(game) => self.online_game(game),
            Said::OnlineGames { count, first } => self.online_games(*count, &self.in_words(first)),
            Said::OnlineGameItem {
                number,
                name,
                my_turn,
            } => self.online_game_item(*number, name.as_deref(), *my_turn),
            Said::OnlineGameChosen(item) => self.online_game_chosen(&self.in_words(item)),
            Said::OnlineServerNotice(notice) => self.online_server_notice(notice),
            Said::OnlineClaimIn { seconds, draw } => self.online_claim_in(*seconds, *draw),
            Said::OnlineRematch { rematch, name } => self.online_rematch(*rematch, name),
            Said::OnlineTakeback(color) => self.online_takeback(*color),
            Said::OnlineOpponent { color, seconds } => self.online_opponent(*color, *seconds),
            Said::OnlineChat { name, text } => self.online_chat(name, text),
            Said::Menu(said) => self.menu_said(said),
            Said::Nothing => String::new(),
            Said::Joined(parts, joint) => {
                let parts = parts.iter().map(|p| self.in_words(p));
                match joint {
                    Joint::Space => parts.collect::<Vec<_>>().join(" "),
                    Joint::Stops => parts.collect::<Vec<_>>().join(". "),
                    Joint::Sentences => parts
                        .map(|p| {
                            if p.ends_with(['.', '!', '?']) {
                                p
                            } else {
                                format!("{p}.")
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(" "),
                }
            }
        }
    }

    /// What a step of the spoken menu says.
    pub fn menu_said(&self, said: &crate::core::menu::MenuSaid) -> String {
        use crate::core::menu::MenuSaid;
        match said {
            MenuSaid::Notice(notice) => self.menu(*notice),
            MenuSaid::Value(value) => self.menu_value(value),
            MenuSaid::Line {
                item,
                value,
                opened,
            } => {
                let value = value.as_ref().map(|v| self.menu_value(v));
                self.menu_line(*item, value.as_deref().unwrap_or_default(), *opened)
            }
            MenuSaid::Chosen { item, value } => self.menu_chosen(*item, &self.menu_value(value)),
            MenuSaid::Confirm(changes) => {
                let changes: Vec<(MenuItem, String)> = changes
                    .iter()
                    .map(|(item, value)| (*item, self.menu_value(value)))
                    .collect();
                self.menu_confirm(&changes)
            }
            MenuSaid::Minutes(ms) => self.duration(*ms),
            MenuSaid::Increment(ms) => self.menu_increment(*ms),
        }
    }

    /// A value of the menu, as the menu says it.
    pub fn menu_value(&self, value: &crate::core::menu::Value) -> String {
        use crate::core::menu::Value;
        use crate::core::settings::Opponent;
        match value {
            Value::Opponent(Opponent::Person) => self.menu(MenuNotice::Person),
            Value::Opponent(Opponent::Engine(strength)) => self.menu_engine(*strength),
            Value::Opponent(Opponent::Lichess(way)) => self.menu_lichess(way),
            Value::Control(None) => self.menu(MenuNotice::NoClock),
            Value::Control(Some(c)) => self.menu_control(c),
            Value::OwnTime => self.menu(MenuNotice::OwnTime),
            Value::Color(c) => self.color(*c).to_string(),
            Value::Rate(r) => self.menu_rate(*r),
            Value::Volume(v) => self.menu_volume(*v),
            Value::Language(l) => self.menu_language(l),
            Value::Act(act) => self.menu_practice(*act),
        }
    }

    /// What the player hears when the engine that plays a seat is in
    /// trouble.
    pub fn engine_trouble(&self, trouble: crate::core::input::EngineTrouble) -> String {
        use crate::core::input::EngineTrouble as T;
        let words = &self.words.opponent;
        match trouble {
            T::CannotStart => &words.cannot_start,
            T::Crashed => &words.crashed,
            T::Hung => &words.hung,
            T::Malformed => &words.malformed,
        }
        .clone()
    }

    /// What the player hears of the server: the connection lost, back,
    /// the game aborted; what he asked of it.
    pub fn online_notice(&self, notice: OnlineNotice) -> String {
        let w = &self.words.online;
        match notice {
            OnlineNotice::Lost => &w.lost,
            OnlineNotice::Back => &w.back,
            OnlineNotice::Aborted => &w.aborted,
            OnlineNotice::TakebackAsked => &w.takeback_asked,
            OnlineNotice::Claim => &w.claim,
            OnlineNotice::ClaimNotYet => &w.claim_not_yet,
            OnlineNotice::AbortAsked => &w.abort_asked,
            OnlineNotice::AiNoDraw => &w.ai_no_draw,
            OnlineNotice::DrawClaimed => &w.draw_claimed,
            OnlineNotice::ClaimOwnTurn => &w.claim_own_turn,
            OnlineNotice::DrawAccepted => &w.draw_accepted,
            OnlineNotice::TakebackDeclined => &w.takeback_declined,
            OnlineNotice::ClaimDraw => &w.claim_draw,
            OnlineNotice::ClaimDrawOwnTurn => &w.claim_draw_own_turn,
            OnlineNotice::DrawNotNow => &w.draw_not_now,
            OnlineNotice::TakebackNotNow => &w.takeback_not_now,
        }
        .clone()
    }

    /// A rematch against `name`, offered, asked, accepted or declined.
    pub fn online_rematch(&self, rematch: Rematch, name: &str) -> String {
        let w = &self.words.online;
        let template = match rematch {
            Rematch::Offered => &w.rematch_offer,
            Rematch::Asked => &w.rematch_asked,
            Rematch::Accepted => &w.rematch_accepted,
            Rematch::Declined => &w.rematch_declined,
        };
        fill(template, &[("name", name)])
    }

    /// The games under way to choose from, `count` of them, and the first
    /// item.
    pub fn online_games(&self, count: usize, first: &str) -> String {
        let intro = fill(&self.words.online.games, &[("count", &count.to_string())]);
        format!("{intro} {first}")
    }

    /// Item `number` (from 1) of the games to choose from: the game
    /// against `name`, the player's move in it or not; or, `name` none,
    /// a new game.
    pub fn online_game_item(&self, number: usize, name: Option<&str>, my_turn: bool) -> String {
        let w = &self.words.online;
        let number = number.to_string();
        match name {
            Some(name) => {
                let turn = if my_turn { &w.your_move } else { &w.their_move };
                fill(
                    &w.game_item,
                    &[("number", &number), ("name", name), ("turn", turn)],
                )
            }
            None => fill(&w.game_new, &[("number", &number)]),
        }
    }

    /// The game chosen, as its item said it.
    pub fn online_game_chosen(&self, item: &str) -> String {
        fill(&self.words.online.game_chosen, &[("item", item)])
    }

    /// The online opponent (`color`) asks to take back his last move.
    pub fn online_takeback(&self, color: Color) -> String {
        fill(
            &self.words.online.takeback_offer,
            &[("color", self.color(color))],
        )
    }

    /// The online opponent (`color`) left, the win claimable in `seconds`
    /// (0: now); or, `seconds` none, he is back.
    pub fn online_opponent(&self, color: Color, seconds: Option<u32>) -> String {
        let w = &self.words.online;
        let n = seconds.map(|s| s.to_string()).unwrap_or_default();
        let template = match seconds {
            None => &w.returned,
            Some(0) => &w.gone_claim,
            Some(_) => &w.gone,
        };
        fill(template, &[("color", self.color(color)), ("n", &n)])
    }

    /// What the server said that the player is to hear.
    pub fn online_server_notice(&self, notice: &crate::core::online::ServerNotice) -> String {
        use crate::core::online::ServerNotice as N;
        let w = &self.words.online;
        match notice {
            N::OtherGame { opponent } => fill(&w.other_game, &[("name", opponent)]),
            N::FindRefused { why } => self.with_reason(&w.find_refused, &[], why),
            N::Declined { by, why } => self.with_reason(&w.declined, &[("name", by)], why),
            N::MoveRefused { why } => self.with_reason(&w.move_refused, &[], why),
            N::ClaimRefused { why } => self.with_reason(&w.claim_refused, &[], why),
            N::FirstMove { seconds } => fill(&w.first_move, &[("n", &seconds.to_string())]),
            N::NoRematch { opponent } => fill(&w.rematch_none, &[("name", opponent)]),
            N::NoToken => w.no_token.clone(),
            N::TokenRefused => w.token_refused.clone(),
            N::GameGone => w.game_gone.clone(),
            N::SeekWaiting => w.seek_waiting.clone(),
        }
    }

    /// `template` filled with `values` and the reason `why` (`{text}`):
    /// one of `core::online::REASONS` in the language's words, else the
    /// server's own (English) words, introduced as such. A reason with
    /// no words leaves the template's colon out.
    fn with_reason(&self, template: &str, values: &[(&str, &str)], why: &str) -> String {
        let reasons = &self.words.online.reasons;
        let text = match reasons.of(why) {
            Some(words) => words.to_string(),
            None => fill(&reasons.in_english, &[("text", why)]),
        };
        let mut values = values.to_vec();
        if text.trim().is_empty() {
            let template = template
                .replace(": {text}", "")
                .replace(":{text}", "")
                .replace("{text}", "");
            let mut said = fill(template.trim_end(), &values);
            if !said.ends_with(['.', '!', '?']) {
                said.push('.');
            }
            return said;
        }
        values.push(("text", &text));
        fill(template, &values)
    }

    /// The win (or, `draw`, the draw) can be claimed in `seconds`, not
    /// yet.
    pub fn online_claim_in(&self, seconds: u64, draw: bool) -> String {
        let w = &self.words.online;
        let template = if draw { &w.claim_draw_in } else { &w.claim_in };
        fill(template, &[("n", &seconds.to_string())])
    }

    /// A chat message: who wrote what.
    pub fn online_chat(&self, name: &str, text: &str) -> String {
        fill(&self.words.online.chat, &[("name", name), ("text", text)])
    }

    pub fn result(&self, outcome: KnownOutcome) -> &str {
        let p = &self.words.phrases;
        match outcome {
            KnownOutcome::Decisive {
                winner: Color::White,
            } => &p.result_white_wins,
            KnownOutcome::Decisive {
                winner: Color::Black,
            } => &p.result_black_wins,
            KnownOutcome::Draw => &p.result_draw,
        }
    }
}

/// How many moves of the engine's main line after the better move a
/// review says: more is hard to follow by ear.
pub const LINE_SAID: usize = 3;

/// Why a move given in UCI notation cannot be announced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// The position is not a FEN.
    NotFen { fen: String, why: String },
    /// The FEN is no legal position.
    IllegalPosition { fen: String, why: String },
    /// The move is not written in UCI notation.
    NotUci { uci: String, why: String },
    /// The move is not legal in the position.
    IllegalMove { uci: String, why: String },
}

impl std::fmt::Display for UciError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UciError::NotFen { fen, why } => write!(f, "--fen \"{fen}\": not a FEN: {why}"),
            UciError::IllegalPosition { fen, why } => {
                write!(f, "--fen \"{fen}\": not a legal position: {why}")
            }
            UciError::NotUci { uci, why } => {
                write!(f, "--move {uci}: not a UCI move (like e2e4): {why}")
            }
            UciError::IllegalMove { uci, why } => {
                write!(f, "--move {uci}: not legal in this position: {why}")
            }
        }
    }
}

impl std::error::Error for UciError {}

/// The announcement of a move given in UCI notation (`e2e4`, `e7e8q`,
/// `e1g1`) in the position `fen` (the start position if `None`).
pub fn announce_uci(words: &Phrasebook, fen: Option<&str>, uci: &str) -> Result<String, UciError> {
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};
    let short = |s: &str| crate::text::quote::short(s).to_string();
    let pos: Chess = match fen {
        None => Chess::default(),
        Some(text) => {
            let fen: Fen =
                text.parse()
                    .map_err(|e: shakmaty::fen::ParseFenError| UciError::NotFen {
                        fen: short(text),
                        why: e.to_string(),
                    })?;
            match fen.clone().into_position(CastlingMode::Standard) {
                Ok(pos) => pos,
                Err(_) => fen.into_position(CastlingMode::Chess960).map_err(|e| {
                    UciError::IllegalPosition {
                        fen: short(text),
                        why: e.to_string(),
                    }
                })?,
            }
        }
    };
    let m = uci
        .parse::<UciMove>()
        .map_err(|e| UciError::NotUci {
            uci: short(uci),
            why: e.to_string(),
        })?
        .to_move(&pos)
        .map_err(|e| UciError::IllegalMove {
            uci: short(uci),
            why: e.to_string(),
        })?;
    Ok(words.move_text(&pos, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_put_in_words_at_the_edge_and_joined_as_they_say() {
        use crate::core::said::{Joint, Said};
        use crate::core::{Event, Stamped};
        let w = Phrasebook::default();
        let parts = || {
            vec![
                Said::Notice(Notice::Resumed),
                Said::MoveNumber(Box::default()),
                Said::Text("Ohne Uhr".into()),
            ]
        };
        let resumed = w.notice(Notice::Resumed);
        let number = w.move_number(&Chess::default());
        assert_eq!(
            w.in_words(&Said::Joined(parts(), Joint::Space)),
            format!("{resumed} {number} Ohne Uhr")
        );
        // As sentences: a full stop where none ends a part.
        let stopped = |s: &str| {
            if s.ends_with(['.', '!', '?']) {
                s.to_string()
            } else {
                format!("{s}.")
            }
        };
        assert_eq!(
            w.in_words(&Said::Joined(parts(), Joint::Sentences)),
            format!("{} {} Ohne Uhr.", stopped(&resumed), stopped(&number))
        );
        assert_eq!(
            w.in_words(&Said::Joined(parts(), Joint::Stops)),
            format!("{resumed}. {number}. Ohne Uhr")
        );
        // The narrator makes every fact in the events words.
        let mut events = vec![Stamped {
            t: 5,
            event: Event::Say {
                text: Said::Notice(Notice::NoClock),
            },
        }];
        super::super::Narrator::new(w.clone(), "fide").tell(&mut events);
        assert_eq!(
            events[0].event,
            Event::Say {
                text: Said::Text(w.notice(Notice::NoClock))
            }
        );
        let json = serde_json::to_value(&events[0]).expect("JSON");
        assert_eq!(json["text"], w.notice(Notice::NoClock));
    }

    #[test]
    fn lichess_reasons_are_said_in_the_players_words_and_its_own_words_as_english() {
        use crate::core::online::{REASONS, ServerNotice};
        for lang in ["de", "en", "es", "ca", "pt", "fide"] {
            let book = Phrasebook::new(Vocabulary::built_in(lang).expect(lang).expect("valid"));
            let reasons = &book.words.online.reasons;
            // Every reason is worded, and none but the one with no
            // reason given is left empty.
            for r in REASONS {
                let words = reasons.of(r).unwrap_or_else(|| panic!("{lang}: {r}"));
                assert_eq!(words.is_empty(), r == "generic", "{lang}: {r}");
            }
            assert!(reasons.in_english.contains("{text}"), "{lang}");
        }
        let de = Phrasebook::new(Vocabulary::built_in("de").expect("de").expect("valid"));
        let said = |n: ServerNotice| de.online_server_notice(&n);
        assert_eq!(
            said(ServerNotice::FindRefused {
                why: "board_time_control".into()
            }),
            "Die Partie wird nicht gestartet: nicht mit dieser Zeitkontrolle am Brett"
        );
        assert_eq!(
            said(ServerNotice::Declined {
                by: "Bert".into(),
                why: "generic".into()
            }),
            "Bert lehnt die Partie ab."
        );
        assert_eq!(
            said(ServerNotice::ClaimRefused {
                why: "Bert does not accept challenges".into()
            }),
            "Sie können nicht reklamieren: auf Englisch: Bert does not accept challenges"
        );
    }

    #[test]
    fn durations_are_hours_and_minutes_with_seconds_only_under_ten_minutes() {
        let b = Phrasebook::default();
        assert_eq!(b.duration(4_320_000 + 59_999), "eine Stunde 12 Minuten");
        assert_eq!(b.duration(7_200_000 + 30_000), "2 Stunden");
        assert_eq!(b.duration(600_000), "10 Minuten");
        assert_eq!(b.duration(599_999), "9 Minuten 59 Sekunden");
        assert_eq!(b.duration(61_000), "eine Minute eine Sekunde");
        assert_eq!(b.duration(120_000), "2 Minuten");
        assert_eq!(b.duration(999), "0 Sekunden");
        let en = Phrasebook::new(Vocabulary::built_in("en").expect("en").expect("valid"));
        assert_eq!(en.duration(3_660_000), "one hour one minute");
        assert_eq!(
            en.times(39, 245_000, 5_400_000, Some(1)),
            "Move 39. White 4 minutes 5 seconds, Black one hour 30 minutes. One move to the time control."
        );
        // Before the first move, no move count.
        assert_eq!(
            en.times(0, 60_000, 60_000, None),
            "White one minute, Black one minute."
        );
    }
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("test FEN");
        fen.into_position(CastlingMode::Standard).expect("legal")
    }

    fn say(fen: &str, uci: &str) -> String {
        say_with(&Phrasebook::default(), fen, uci)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn e2_1_pawn_and_piece_moves_name_piece_and_destination() {
        assert_eq!(say(START, "e2e4"), "Bauer Eva vier");
        assert_eq!(say(START, "g1f3"), "Springer Felix drei");
    }

    #[test]
    fn e2_1_capture_check_and_disambiguation() {
        // exd5 and Nbd2-style disambiguation.
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(say(fen, "e4d5"), "Bauer Eva schlägt David fünf");
        let fen = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        assert_eq!(say(fen, "a1d1"), "Turm Anna David eins");
        let fen = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
        assert_eq!(say(fen, "a1d1"), "Turm David eins");
        let fen = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
        assert_eq!(say(fen, "a1a8"), "Turm Anna acht, Schach");
    }

    #[test]
    fn e2_1_castling_is_kurze_and_lange_rochade() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(say(fen, "e1g1"), "Kurze Rochade");
        assert_eq!(say(fen, "e1c1"), "Lange Rochade");
    }

    #[test]
    fn e2_1_promotion_names_the_chosen_piece_and_mate_is_said() {
        let fen = "7k/4P3/6K1/8/8/8/8/8 w - - 0 1";
        assert_eq!(
            say(fen, "e7e8q"),
            "Bauer Eva acht Umwandlung in Dame, Schachmatt"
        );
        assert_eq!(say(fen, "e7e8n"), "Bauer Eva acht Umwandlung in Springer");
    }

    #[test]
    fn the_openings_code_is_written_for_each_language_to_say_its_letter() {
        use crate::core::opening::{Eco, Family};
        let eco = |s: &str| s.parse::<Eco>().ok();
        let cases = [
            (
                "de",
                "A10",
                Some(Family::English),
                "Englische Eröffnung, A10.",
            ),
            (
                "en",
                "E60",
                Some(Family::KingsIndian),
                "King's Indian Defence, E60.",
            ),
            ("pt", "A10", Some(Family::English), "Abertura Inglesa, Á10."),
            (
                "pt",
                "E60",
                Some(Family::KingsIndian),
                "Defesa Índia do Rei, É60.",
            ),
            ("pt", "B07", None, "Abertura B07."),
            ("ca", "A10", Some(Family::English), "Obertura anglesa, À10."),
            ("es", "C03", Some(Family::French), "Defensa francesa, C03."),
        ];
        for (language, code, family, said) in cases {
            let words = Phrasebook::new(
                Vocabulary::built_in(language)
                    .expect(language)
                    .expect("valid"),
            );
            assert_eq!(words.opening(eco(code), family), said, "{language}");
        }
        let none = Phrasebook::default().opening(None, Some(Family::English));
        assert_eq!(none, "Keine bekannte Eröffnung.");
    }

    #[test]
    fn en_passant_is_said() {
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(say(fen, "e5d6"), "Bauer Eva schlägt David sechs en passant");
    }

    #[test]
    fn mismatch_guidance_names_squares_and_pieces() {
        let b = Phrasebook::default();
        let text = b.mismatch(
            &[(Square::G1, Piece::from_char('N').expect("N"))],
            &[Square::H3],
        );
        assert_eq!(
            text,
            "Brett stimmt nicht. Entfernen von Hector drei. Weiß Springer auf Gustav eins stellen."
        );
    }

    #[test]
    fn position_lists_both_sides() {
        let b = Phrasebook::default();
        let text = b.position(&pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
        assert_eq!(
            text,
            "Weiß: Koenig Eva eins, Turm Anna eins. Schwarz: Koenig Eva acht. Weiß am Zug."
        );
    }

    fn book(language: &str) -> Phrasebook {
        Phrasebook::new(
            Vocabulary::built_in(language)
                .expect("built in")
                .expect("parses"),
        )
    }

    fn say_with(b: &Phrasebook, fen: &str, uci: &str) -> String {
        announce_uci(b, Some(fen), uci).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn english_examples_from_the_issue() {
        let b = book("en");
        assert_eq!(say_with(&b, START, "g1f3"), "Knight Felix three");
        let fen = "4k3/8/2n5/8/B7/8/8/4K3 w - - 0 1";
        assert_eq!(say_with(&b, fen, "a4c6"), "Bishop takes Cesar six, check");
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
        assert_eq!(say_with(&b, fen, "e8c8"), "Long castling");
    }

    #[test]
    fn each_language_names_pieces_and_numbers_in_its_own_words() {
        let expected = [
            ("fide", "Bauer Eva vier", "Springer Felix drei"),
            ("de", "Bauer Eva vier", "Springer Felix drei"),
            ("en", "Pawn Eva four", "Knight Felix three"),
            ("pt", "Peão Eva quatro", "Cavalo Felix três"),
            ("es", "Peón Eva cuatro", "Caballo Felix tres"),
            ("ca", "Peó Eva quatre", "Cavall Felix tres"),
        ];
        for (language, pawn, knight) in expected {
            let b = book(language);
            assert_eq!(say_with(&b, START, "e2e4"), pawn, "{language}");
            assert_eq!(say_with(&b, START, "g1f3"), knight, "{language}");
        }
    }

    #[test]
    fn files_can_be_letters_or_nato() {
        let letters = Phrasebook::default().with_naming(FileNaming::Letters);
        assert_eq!(say_with(&letters, START, "g1f3"), "Springer F drei");
        let nato = book("en").with_naming(FileNaming::Nato);
        assert_eq!(say_with(&nato, START, "g1f3"), "Knight Foxtrot three");
    }

    #[test]
    fn long_style_names_the_from_square() {
        let long = Phrasebook::default().with_styles(Styles::both(Style::Long));
        assert_eq!(
            say_with(&long, START, "g1f3"),
            "Springer Gustav eins nach Felix drei"
        );
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(
            say_with(&long, fen, "e4d5"),
            "Bauer Eva vier schlägt David fünf"
        );
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(say_with(&long, fen, "e1g1"), "Kurze Rochade");
        let fen = "7k/4P3/6K1/8/8/8/8/8 w - - 0 1";
        assert_eq!(
            say_with(&long, fen, "e7e8q"),
            "Bauer Eva sieben nach Eva acht Umwandlung in Dame, Schachmatt"
        );
        let en = book("en").with_styles(Styles::both(Style::Long));
        let fen = "4k3/8/2n5/8/B7/8/8/4K3 w - - 0 1";
        assert_eq!(
            say_with(&en, fen, "a4c6"),
            "Bishop Anna four takes Cesar six, check"
        );
    }

    #[test]
    fn style_is_chosen_per_player() {
        let b = Phrasebook::default().with_styles(Styles {
            white: Style::Short,
            black: Style::Long,
        });
        assert_eq!(say_with(&b, START, "g1f3"), "Springer Felix drei");
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(
            say_with(&b, black, "g8f6"),
            "Springer Gustav acht nach Felix sechs"
        );
    }

    #[test]
    fn rank_and_file_scans_list_what_stands_there() {
        let b = Phrasebook::default();
        let p = pos("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1");
        assert_eq!(
            b.rank_scan(&p, shakmaty::Rank::First),
            "Reihe eins: Weiß Turm Anna eins, Weiß Koenig Eva eins."
        );
        assert_eq!(
            b.file_scan(&p, shakmaty::File::E),
            "Linie Eva: Weiß Koenig Eva eins, Weiß Bauer Eva zwei, Schwarz Koenig Eva acht."
        );
        assert_eq!(b.rank_scan(&p, shakmaty::Rank::Fifth), "Reihe fünf: leer.");
    }

    #[test]
    fn move_number_and_numbered_move() {
        let b = book("en");
        let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(b.move_number(&p), "Move 1, Black to move.");
        let m = "e7e5"
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&p)
            .expect("legal");
        assert_eq!(b.numbered_move(1, &p, m), "1. Black: Pawn Eva five");
    }

    #[test]
    fn a_move_that_cannot_be_announced_says_which_part_is_wrong() {
        let words = Phrasebook::default();
        assert!(matches!(
            announce_uci(&words, None, "d7d5"),
            Err(UciError::IllegalMove { .. })
        ));
        assert!(matches!(
            announce_uci(&words, None, "springer"),
            Err(UciError::NotUci { .. })
        ));
        assert!(matches!(
            announce_uci(&words, Some("not a fen"), "e2e4"),
            Err(UciError::NotFen { .. })
        ));
        assert_eq!(
            announce_uci(&words, None, "g1f3").as_deref(),
            Ok("Springer Felix drei")
        );
    }
}
