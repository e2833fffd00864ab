//! Turning moves, squares and board states into the words that are spoken.
//!
//! Pure functions over a [`Vocabulary`]: no word is written in code.

use shakmaty::{
    CastlingSide, Chess, Color, KnownOutcome, Move, Piece, Position, Role, Square,
    san::{San, SanPlus, Suffix},
};

use super::vocabulary::Vocabulary;

/// Fills `{name}` placeholders in a template.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// Composes spoken phrases in one language.
#[derive(Debug, Clone)]
pub struct Phrasebook {
    pub words: Vocabulary,
}

impl Default for Phrasebook {
    fn default() -> Self {
        Phrasebook {
            words: Vocabulary::fide(),
        }
    }
}

impl Phrasebook {
    pub fn new(words: Vocabulary) -> Phrasebook {
        Phrasebook { words }
    }

    /// "Felix drei".
    pub fn square(&self, sq: Square) -> String {
        format!(
            "{} {}",
            self.words.file(sq.file()),
            self.words.rank(sq.rank())
        )
    }

    pub fn piece(&self, role: Role) -> &str {
        self.words.piece(role)
    }

    pub fn color(&self, color: Color) -> &str {
        self.words.color(color)
    }

    /// The announcement of `m`, played in `before`: piece, disambiguation,
    /// capture word, destination, then promotion and check or mate.
    /// "Springer Felix drei", "Bauer Eva schlägt David fünf", "Kurze Rochade".
    pub fn move_text(&self, before: &Chess, m: Move) -> String {
        let san_plus = SanPlus::from_move(before.clone(), m);
        self.san_text(&san_plus, m.is_en_passant())
    }

    fn san_text(&self, san_plus: &SanPlus, en_passant: bool) -> String {
        let w = &self.words;
        let mut parts: Vec<String> = Vec::new();
        match san_plus.san {
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
                    parts.push(w.file(file).to_string());
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
        let mut text = parts.join(" ");
        match san_plus.suffix {
            Some(Suffix::Check) => {
                text.push_str(&w.moves.suffix_separator);
                text.push_str(&w.moves.check);
            }
            Some(Suffix::Checkmate) => {
                text.push_str(&w.moves.suffix_separator);
                text.push_str(&w.moves.checkmate);
            }
            None => {}
        }
        text
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

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("test FEN");
        fen.into_position(CastlingMode::Standard).expect("legal")
    }

    fn say(fen: &str, uci: &str) -> String {
        let p = pos(fen);
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&p)
            .expect("legal move");
        Phrasebook::default().move_text(&p, m)
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
}
