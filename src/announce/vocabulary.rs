//! The words pegboard speaks, loaded from a language file.
//!
//! Every key is required and unknown keys are rejected, so a language file
//! that is incomplete or misspelt fails at startup with the key named,
//! never in the middle of a game.

use serde::Deserialize;
use shakmaty::{Color, File, Rank, Role};

/// The FIDE vocabulary of Appendix E2.1 (German piece names, Anna … Hector,
/// eins … acht), built into the binary.
pub const FIDE: &str = include_str!("lang/fide.toml");

/// The tables of a language file that only the pages show and nothing
/// speaks: the clip maker makes no clip of their words, and the checks of
/// what is spoken leave them out.
pub const PAGE_TABLES: [&str; 3] = ["display", "console", "hall"];

/// Every language file in `src/announce/lang/`, by name, built into the
/// binary (the table is made by `build.rs`).
pub const BUILT_IN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/languages.rs"));

/// How files are spoken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileNaming {
    /// Anna, Bella, Cesar … (Appendix E2.1).
    #[default]
    Fide,
    /// The letters themselves.
    Letters,
    /// Alpha, Bravo, Charlie …
    Nato,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    pub language: Language,
    pub files: FileWords,
    pub ranks: Ranks,
    pub pieces: Pieces,
    pub colors: Colors,
    pub moves: MoveWords,
    pub phrases: Phrases,
    /// The mirror page's own words (optional: English without it).
    #[serde(default)]
    pub display: DisplayWords,
    /// Why a relayed move was refused (optional: English without it).
    #[serde(default)]
    pub refusal: RefusalWords,
    /// The console page's own words (optional: English without it).
    #[serde(default)]
    pub console: ConsoleWords,
    /// What is said when the engine opponent is in trouble (optional:
    /// English without it).
    #[serde(default)]
    pub opponent: OpponentWords,
    /// What practice against the engine says: hints, who stands better,
    /// the review after the game (optional: English without it).
    #[serde(default)]
    pub practice: PracticeWords,
    /// What the spoken menu says: its items, their values, the choices
    /// said back (optional: English without it).
    #[serde(default)]
    pub menu: MenuWords,
    /// What a game on lichess says: the game found, the connection lost
    /// and back, the endings only the server knows (optional: English
    /// without it).
    #[serde(default)]
    pub online: OnlineWords,
    /// The opening's name: the families named in words, and the answer
    /// (optional: English without it).
    #[serde(default)]
    pub openings: OpeningWords,
    /// The arbiter's hall view's own words (optional: English without it).
    #[serde(default)]
    pub hall: HallWords,
    /// How words that a synthesizer misreads are to be said (optional).
    #[serde(default)]
    pub spoken: super::spoken::Pronunciation,
    /// How words the file spells as the Laws print them, in ASCII
    /// ("Laeufer"), are written on the pages ("Läufer") (optional).
    #[serde(default)]
    pub written: super::spoken::Written,
    /// How the clip maker is to say the words no spelling gets right, in
    /// espeak-ng's phonemes (optional). Never handed to speech-dispatcher:
    /// its espeak-ng module reads `[[…]]` out letter by letter.
    #[serde(default)]
    pub phonemes: super::spoken::Pronunciation,
}

/// `[display]`: the words the sighted opponent's mirror page shows around
/// the game (its headings, buttons and notes). The moves, pieces, colours
/// and status lines come from the rest of the language file. The table is
/// optional, so a language file written before it still works and its page
/// is in English; a table that is there must be whole.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct DisplayWords {
    /// The page's title.
    pub title: String,
    /// Heading over the board.
    pub board: String,
    /// What a screen reader calls the board's table of squares.
    pub board_table: String,
    /// Heading over the move the sighted player must make on his board.
    pub repeat: String,
    /// The note under that move.
    pub to_play: String,
    pub clocks: String,
    /// Heading over the status line.
    pub status: String,
    /// Heading over the move list.
    pub moves: String,
    /// `{result}`: 1-0, 0-1 or 1/2-1/2.
    pub result: String,
    /// The dark-mode button.
    pub dark: String,
    /// The large-type button.
    pub large: String,
    /// Beside a clock that is stopped.
    pub paused: String,
    /// While the page has lost the daemon and is trying again.
    pub reconnecting: String,
    /// `{square}`: the square of a captured piece.
    pub takes: String,
    /// `{square}`: the pawn to remove after an en passant capture.
    pub en_passant: String,
    /// `{king}`, `{rook}`: "e1 → g1".
    pub castling: String,
    /// `{piece}`: the piece a pawn becomes.
    pub promotes: String,
    /// An empty square in the table of squares.
    pub empty: String,
    /// A piece in the table of squares: `{piece}`, `{color}`.
    pub piece: String,
}

/// The English words of the optional table `table`, from the built-in
/// `en` language file (checked whole by a unit test, as for `fide()`).
fn english<T: serde::de::DeserializeOwned>(table: &str) -> T {
    let parsed = toml::from_str::<toml::Table>(include_str!("lang/en.toml"))
        .map_err(|e| e.to_string())
        .and_then(|mut all| {
            all.remove(table)
                .ok_or_else(|| format!("no [{table}]"))?
                .try_into::<T>()
                .map_err(|e| e.to_string())
        });
    match parsed {
        Ok(words) => words,
        Err(e) => panic!("the built-in English [{table}] words are broken: {e}"),
    }
}

impl Default for DisplayWords {
    /// The English words, from the built-in `en` language file.
    fn default() -> DisplayWords {
        english("display")
    }
}

/// `[refusal]`: why a relayed move cannot be played, said after
/// `relay_refused` and followed by `to_move`. `{square}` is said as a
/// square, `{piece}` as a piece, `{color}` and `{owner}` as a colour.
/// Optional, English without it; a table that is there must be whole.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct RefusalWords {
    /// No piece on the square the move starts from.
    pub empty: String,
    /// The piece is the other player's (1.1): `{square}`, `{owner}`.
    pub turn: String,
    /// A piece of the mover's colour on the square moved to (3.1).
    pub own_piece: String,
    /// The mover's king would be in check (3.9).
    pub check: String,
    /// Castling is not allowed now (3.8).
    pub castling: String,
    /// A pawn on the last rank needs its piece named (3.7e).
    pub promotion: String,
    /// A bishop, rook or queen would pass over a piece (3.5).
    pub blocked: String,
    /// The piece does not move that way (3.2–3.8).
    pub moves_otherwise: String,
    /// The move named could be made by more than one piece.
    pub ambiguous: String,
    /// No piece can make the move named.
    pub no_move: String,
    /// Whose turn it is: `{color}`.
    pub to_move: String,
    /// A take-back that is not of the last relayed move, or too late.
    pub take_back: String,
}

impl Default for RefusalWords {
    fn default() -> RefusalWords {
        english("refusal")
    }
}

/// `[opponent]`: what the player hears when the engine he plays against
/// is in trouble, each said once; pegboard puts it right by itself.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct OpponentWords {
    /// It ended; it is started again.
    pub crashed: String,
    /// It gave no move in its time; it is started again.
    pub hung: String,
    /// It answered no move, or an illegal one; it is asked again.
    pub malformed: String,
    /// It cannot be started.
    pub cannot_start: String,
}

impl Default for OpponentWords {
    fn default() -> OpponentWords {
        english("opponent")
    }
}

/// `[online]`: what the player hears in a game on lichess. `{name}` is
/// the opponent's name as the server gives it, `{rating}` his rating,
/// `{color}` a colour's word, `{result}` the result.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct OnlineWords {
    /// The server started a game: against whom, with which colour.
    pub game: String,
    /// The same, for an opponent without a rating (lichess's AI).
    pub game_unrated: String,
    /// The games under way to choose from (`{count}` of them), and how
    /// to choose: the menu's keys.
    pub games: String,
    /// One of them: its `{number}`, the opponent's `{name}`, whose
    /// `{turn}` it is.
    pub game_item: String,
    /// The last choice, `{number}`: a new game instead.
    pub game_new: String,
    /// `{turn}`: the player's move…
    pub your_move: String,
    /// …or the opponent's.
    pub their_move: String,
    /// The `{item}` chosen.
    pub game_chosen: String,
    /// Said after it when the game is Chess960: its start to be set up.
    pub chess960: String,
    /// Said after it when the game starts from a set position.
    pub from_position: String,
    /// The connection to the server was lost; the game is kept.
    pub lost: String,
    /// The connection is back.
    pub back: String,
    /// The server aborted the game before it began: no result.
    pub aborted: String,
    /// The opponent left and the player claimed the win.
    pub game_over_abandoned: String,
    /// The server ended the game for a reason of its own.
    pub game_over_server: String,
    /// The opponent asks to take back his last move.
    pub takeback_offer: String,
    /// The player asked to take back the last move (or agreed to it).
    pub takeback_asked: String,
    /// The player claims the win: the opponent left.
    pub claim: String,
    /// The player claims the win, but the opponent is still there.
    pub claim_not_yet: String,
    /// The player gave the game up before it began: it is aborted.
    pub abort_asked: String,
    /// The opponent left; the win can be claimed in `{n}` seconds…
    pub gone: String,
    /// …or now.
    pub gone_claim: String,
    /// The opponent is back.
    pub returned: String,
    /// A chat message: `{name}` wrote `{text}`.
    pub chat: String,
    /// Another game of the account's, against `{name}`, is under way on
    /// lichess and not played here.
    pub other_game: String,
    /// lichess refused to find the game asked for, with its words
    /// `{text}`.
    pub find_refused: String,
    /// No lichess token is kept: the game cannot be found there.
    pub no_token: String,
    /// lichess refused the token kept: nothing reaches it until a new
    /// one is kept.
    pub token_refused: String,
    /// lichess knows the game played here no more.
    pub game_gone: String,
    /// A correspondence seek made before still waits on lichess: no
    /// other is made.
    pub seek_waiting: String,
    /// `{name}` declined the player's challenge, with lichess's reason
    /// `{text}`.
    pub declined: String,
    /// lichess refused the player's last move, with its words `{text}`.
    pub move_refused: String,
    /// lichess refused the player's claim, with its words `{text}`.
    pub claim_refused: String,
    /// The first move is to be made within `{n}` seconds, or lichess
    /// aborts the game.
    pub first_move: String,
    /// lichess's AI takes no draw offers.
    pub ai_no_draw: String,
    /// A draw offer lichess takes only after both have moved, and one in
    /// 20 half-moves: not made.
    pub draw_not_now: String,
    /// A takeback request lichess takes only once both have moved: not
    /// made.
    pub takeback_not_now: String,
    /// The win can be claimed in `{n}` seconds, not yet.
    pub claim_in: String,
    /// The player claims a draw (a repetition): lichess decides.
    pub draw_claimed: String,
    /// The player claims the win on his own move: lichess grants it only
    /// while the opponent who left is to move.
    pub claim_own_turn: String,
    /// The player accepts the opponent's draw offer: lichess ends the
    /// game.
    pub draw_accepted: String,
    /// The player declines the opponent's request to take back a move.
    pub takeback_declined: String,
    /// The player claims a draw: the opponent left.
    pub claim_draw: String,
    /// The draw can be claimed in `{n}` seconds, not yet.
    pub claim_draw_in: String,
    /// The player claims the draw on his own move: lichess grants it only
    /// while the opponent who left is to move.
    pub claim_draw_own_turn: String,
    /// After the game, `{name}` offers a rematch; how to take it.
    pub rematch_offer: String,
    /// The player offers `{name}` a rematch; the pieces are to be set up.
    pub rematch_asked: String,
    /// The player accepts `{name}`'s rematch.
    pub rematch_accepted: String,
    /// The player declines `{name}`'s rematch.
    pub rematch_declined: String,
    /// No game came of the rematch against `{name}`; how to look for
    /// another.
    pub rematch_none: String,
    /// lichess's reasons, in words (optional: English without it).
    #[serde(default)]
    pub reasons: ReasonWords,
}

impl Default for OnlineWords {
    fn default() -> OnlineWords {
        english("online")
    }
}

/// `[online.reasons]`: why lichess declined or refused, in words that
/// follow a notice's colon (`core::online::REASONS`, one field each).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReasonWords {
    /// A challenge declined with no reason given (may be empty).
    pub generic: String,
    /// …not now.
    pub later: String,
    /// …a slower game wanted.
    pub too_fast: String,
    /// …a faster game wanted.
    pub too_slow: String,
    /// …not at this time control.
    pub time_control: String,
    /// …a rated game wanted.
    pub rated: String,
    /// …a casual game wanted.
    pub casual: String,
    /// …standard chess wanted.
    pub standard: String,
    /// …not this variant.
    pub variant: String,
    /// …no games against computers.
    pub no_bot: String,
    /// …games against computers only.
    pub only_bot: String,
    /// lichess plays this time control on no board (the Board API plays
    /// rapid and slower; blitz against its AI or a friend).
    pub board_time_control: String,
    /// The account plays too many games already.
    pub too_many_games: String,
    /// Not the player's turn, or the game is over.
    pub not_your_turn: String,
    /// A move lichess takes as illegal.
    pub illegal_move: String,
    /// The win cannot be claimed in this game.
    pub no_claim: String,
    /// A draw cannot be claimed in this game.
    pub no_claim_draw: String,
    /// No such game, or not the player's.
    pub no_game: String,
    /// No such player on lichess.
    pub no_user: String,
    /// lichess's own words (`{text}`), which are English: how they are
    /// introduced.
    pub in_english: String,
}

impl Default for ReasonWords {
    fn default() -> ReasonWords {
        english::<OnlineWords>("online").reasons
    }
}

impl ReasonWords {
    /// The words for `reason` (one of `core::online::REASONS`), or none.
    pub fn of(&self, reason: &str) -> Option<&str> {
        Some(match reason {
            "generic" => &self.generic,
            "later" => &self.later,
            "too_fast" => &self.too_fast,
            "too_slow" => &self.too_slow,
            "time_control" => &self.time_control,
            "rated" => &self.rated,
            "casual" => &self.casual,
            "standard" => &self.standard,
            "variant" => &self.variant,
            "no_bot" => &self.no_bot,
            "only_bot" => &self.only_bot,
            "board_time_control" => &self.board_time_control,
            "too_many_games" => &self.too_many_games,
            "not_your_turn" => &self.not_your_turn,
            "illegal_move" => &self.illegal_move,
            "no_claim" => &self.no_claim,
            "no_claim_draw" => &self.no_claim_draw,
            "no_game" => &self.no_game,
            "no_user" => &self.no_user,
            _ => return None,
        })
    }
}

/// `[practice]`: what the player hears when he practises against the
/// engine. `{side}` is a colour's word, `{move}` a move, `{n}` and
/// `{number}` numbers.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeWords {
    /// The engine's best move for the player.
    pub hint: String,
    /// The first hint in a position: the piece and its square.
    pub hint_piece: String,
    /// Who stands better: level, a little, clearly, winning.
    pub equal: String,
    pub slightly: String,
    pub clearly: String,
    pub winning: String,
    /// `{side}` mates in `{n}` moves, or on the next move.
    pub mates: String,
    pub mates_next: String,
    /// Asked in a game without the engine.
    pub not_practice: String,
    /// A hint asked while the engine is to move.
    pub engine_to_move: String,
    /// The engine declines the player's draw offer.
    pub draw_declined: String,
    /// A takeback with no move of the player's to take back.
    pub nothing_to_take_back: String,
    /// The review asked before the game is over.
    pub review_after_game: String,
    /// The review has begun.
    pub reviewing: String,
    /// The review found no serious mistake.
    pub no_mistakes: String,
    /// One mistake: `{number}` the move number, `{move}` the move played,
    /// `{loss}` one of the `loses_…` words below.
    pub mistake: String,
    /// The better move, said after the mistake.
    pub better: String,
    pub allows_mate: String,
    pub misses_mate: String,
    pub loses_queen: String,
    pub loses_rook: String,
    pub loses_piece: String,
    pub loses_pawn: String,
    /// The mistake stepped to: `{index}` of `{count}`.
    pub review_step: String,
    /// The engine's main line after the better move: `{line}`, its moves.
    pub then: String,
    /// A step past the last mistake.
    pub no_more_mistakes: String,
    /// The review is left (the menu key).
    pub review_ended: String,
    /// The mistake's position is set up as a new game: `{number}` the
    /// mistake's move number.
    pub review_position: String,
    /// What the engine threatens: `{move}`, its best move were it to move.
    pub threat: String,
    /// It threatens nothing that takes or gives check.
    pub no_threat: String,
    /// The threat asked while the player is in check.
    pub in_check: String,
    /// The evaluation after move `{number}` of `{side}` in the review:
    /// `{standing}` is one of the sentences above.
    pub after_move: String,
}

/// `[openings]`: the answer to the `opening` question, and the names of
/// the families of openings said in words (`core::opening::Family`).
/// `{name}` a family's name, `{eco}` the ECO code ("B90").
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningWords {
    /// A family's opening: `{name}`, `{eco}`.
    pub named: String,
    /// An opening of no family named here: `{eco}`.
    pub coded: String,
    /// No position of the game is classified (or there is no
    /// classification to look in).
    pub unknown: String,
    /// The code's letter, A to E, as it is written for the synthesizer
    /// to say the letter's name (Portuguese "Á", not the article "a").
    pub volume_a: String,
    pub volume_b: String,
    pub volume_c: String,
    pub volume_d: String,
    pub volume_e: String,
    pub english: String,
    pub dutch: String,
    pub scandinavian: String,
    pub sicilian: String,
    pub french: String,
    pub vienna: String,
    pub kings_gambit: String,
    pub russian: String,
    pub scotch: String,
    pub italian: String,
    pub two_knights: String,
    pub four_knights: String,
    pub spanish: String,
    pub queens_gambit: String,
    pub slav: String,
    pub queens_gambit_accepted: String,
    pub queens_gambit_declined: String,
    pub catalan: String,
    pub kings_indian: String,
    pub queens_indian: String,
}

impl Default for OpeningWords {
    fn default() -> OpeningWords {
        english("openings")
    }
}

impl Default for PracticeWords {
    fn default() -> PracticeWords {
        english("practice")
    }
}

/// `[menu]`: what the spoken menu says. `{item}` is an item's name,
/// `{value}` its value, `{n}` a number, `{time}` a duration as the clock
/// is read aloud, `{moves}` a number of moves, `{choices}` the changed
/// items with their values.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct MenuWords {
    /// The menu opened (the first item follows).
    pub open: String,
    /// The menu closed with nothing changed.
    pub closed: String,
    /// An item reached, with the value it has now.
    pub item: String,
    /// A value chosen, said back.
    pub chosen: String,
    /// Leaving a menu with changes: the changes said back, and the keys
    /// that save or discard them.
    pub confirm: String,
    /// Saved, when no game is under way: the new game's own words follow.
    pub saved: String,
    /// Saved while a game is under way: it goes on unless the player
    /// asks for a new game now.
    pub under_way: String,
    /// The game under way goes on; the choices wait for the next game.
    pub next_game: String,
    /// The changes were discarded.
    pub discarded: String,
    /// The items.
    pub opponent: String,
    /// The practice item, and its values: the hint, who stands better,
    /// the takeback, the review, the material balance.
    pub practice: String,
    pub practice_hint: String,
    pub practice_evaluation: String,
    pub practice_takeback: String,
    pub practice_review: String,
    pub practice_material: String,
    pub practice_threat: String,
    pub practice_opening: String,
    pub time_control: String,
    pub color: String,
    pub rate: String,
    pub volume: String,
    pub language: String,
    /// The opponent's values: a person on this board, or the engine at a
    /// step of the menu (`{n}`, 1 to 8), at an Elo, or at a skill level.
    pub person: String,
    pub engine_step: String,
    /// A game begins: `{opponent}`, `{color}`, `{clock}`.
    pub begins: String,
    /// One hour and one minute as `period_moves` says them after its "in".
    pub period_hour: String,
    pub period_minute: String,
    /// A step's strength: a rating, the beginner, full strength.
    pub step_rated: String,
    pub step_beginner: String,
    pub step_full: String,
    pub engine_elo: String,
    pub engine_level: String,
    /// An opponent on lichess: a seek (`{rated}`), its AI at level `{n}`,
    /// the friend `{name}` challenged (`{rated}`), a challenge accepted;
    /// `{rated}` is `rated` or `casual`.
    pub online_seek: String,
    pub online_ai: String,
    pub online_friend: String,
    pub online_accept: String,
    pub rated: String,
    pub casual: String,
    /// The time control's values.
    pub no_clock: String,
    pub own_time: String,
    /// A period with a move count, and the word between periods.
    pub period_moves: String,
    pub then: String,
    /// What each move earns: a Fischer increment, or a delay (simple or
    /// Bronstein).
    pub increment: String,
    pub delay: String,
    /// The volume, in percent; a negative rate.
    pub percent: String,
    pub minus: String,
    /// Each built-in language's name, in this language.
    pub languages: std::collections::BTreeMap<String, String>,
}

impl Default for MenuWords {
    fn default() -> MenuWords {
        english("menu")
    }
}

/// `[console]`: the words of the assistant's and arbiter's console page,
/// beside the mirror's `[display]` words it also uses. Optional, English
/// without it; a table that is there must be whole. `{…}` are filled in.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ConsoleWords {
    pub title: String,
    pub secret: String,
    pub log_in: String,
    pub secret_hint: String,
    pub log_out: String,
    pub logged_in: String,
    pub logged_out: String,
    pub wrong_secret: String,
    /// `{seconds}`: how long to wait.
    pub too_many: String,
    pub session_ended: String,
    pub no_answer: String,
    pub done: String,
    pub arbiter_coming: String,
    pub refused: String,
    pub relay: String,
    pub play: String,
    /// `{move}`: the relayed move to take back.
    pub take_back: String,
    /// `{square}`: the square tapped first.
    pub chosen: String,
    pub clock: String,
    /// `{color}`: whose clock.
    pub press: String,
    pub pause: String,
    pub resume: String,
    pub minutes: String,
    pub set_clocks: String,
    pub say_aloud: String,
    pub last_move: String,
    pub last_moves: String,
    pub how_many: String,
    pub times: String,
    pub move_number: String,
    pub position: String,
    /// The material balance and the opening's name, said aloud.
    pub material: String,
    pub opening: String,
    pub promotion: String,
    pub for_player: String,
    pub player: String,
    pub draw_offer: String,
    pub draw_claim: String,
    pub draw_decline: String,
    pub flag_claim: String,
    pub quickplay_claim: String,
    pub resign: String,
    pub touch_report: String,
    pub arbiter: String,
    pub illegal_move: String,
    /// The arbiter's ruling on a quickplay-finish claim: its heading and
    /// its three buttons.
    pub quickplay_ruling: String,
    pub quickplay_draw: String,
    pub quickplay_postpone: String,
    pub quickplay_reject: String,
    pub back_to: String,
    pub retrace: String,
    pub new_game: String,
    pub adjourn: String,
    pub unseal: String,
    pub setup_fen: String,
    pub setup_960: String,
    pub set_up: String,
    /// The practice buttons (a game against the engine).
    pub practice: String,
    pub hint: String,
    pub evaluation: String,
    pub threat: String,
    pub practice_take_back: String,
    pub review: String,
    pub scoresheet: String,
    pub download: String,
    /// `{color}` resigns, `{other}` wins.
    pub confirm_resign: String,
    pub yes_resign: String,
    pub confirm_new: String,
    pub yes_new: String,
    pub cancel: String,
    pub nothing_done: String,
    pub seal_first: String,
    /// `{number}`, `{color}`: the move to be made and who makes it.
    pub game_line: String,
    /// `{move}`: the last move.
    pub last: String,
    pub no_move_yet: String,
    /// Reports beside the moves: `{color}`, and `{count}` for illegal
    /// moves seen on a board.
    pub reported_illegal: String,
    pub reported_penalty: String,
    pub reported_touch: String,
    pub touch_violation: String,
    /// How a refusal names the Laws' article: `{article}`.
    pub article: String,
}

/// `[hall]`: the words of the arbiter's hall view (`pegboard hall`),
/// beside the mirror's `[display]` words it also uses. Optional, English
/// without it; a table that is there must be whole. `{…}` are filled in.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct HallWords {
    pub title: String,
    /// `{number}`: the board's number in the round.
    pub board: String,
    /// `{round}`.
    pub round: String,
    pub needs: String,
    pub nothing_needed: String,
    /// `{for}`: how long, as minutes and seconds.
    pub called: String,
    /// `{color}`.
    pub flag: String,
    pub lost: String,
    pub awaited: String,
    pub sensors_lost: String,
    /// `{for}`, and `{squares}` it differs on.
    pub differing: String,
    /// `{color}`, `{count}`: his illegal moves so far.
    pub illegal: String,
    /// `{color}`.
    pub touch: String,
    /// `{colors}`: the sides without a name lichess takes.
    pub unnamed: String,
    /// Said by the running clock, for a screen reader.
    pub to_move: String,
    pub no_move: String,
    /// `{minutes}`: the organiser's delay.
    pub delayed: String,
    pub round_pgn: String,
    /// `{count}`: the pushes lichess took.
    pub pushed: String,
    /// `{trouble}`: lichess's words or the failure.
    pub push_trouble: String,
}

impl Default for HallWords {
    fn default() -> HallWords {
        english("hall")
    }
}

impl Default for ConsoleWords {
    fn default() -> ConsoleWords {
        english("console")
    }
}

impl ConsoleWords {
    /// These words with every `{art:NAME}` written as `laws` numbers the
    /// article NAME (`{art:illegal_moves}`: "7.5.5" today, "7.4b" in
    /// 2008). An unknown name stays as it is written.
    pub fn cited(&self, laws: crate::core::laws::Edition) -> ConsoleWords {
        let Ok(mut value) = serde_json::to_value(self) else {
            return self.clone();
        };
        if let serde_json::Value::Object(map) = &mut value {
            for v in map.values_mut() {
                if let serde_json::Value::String(text) = v {
                    *text = cite_articles(text, laws);
                }
            }
        }
        serde_json::from_value(value).unwrap_or_else(|_| self.clone())
    }
}

/// `text` with every `{art:NAME}` of a known article replaced by its
/// number in `laws`.
pub fn cite_articles(text: &str, laws: crate::core::laws::Edition) -> String {
    let mut out = text.to_string();
    for article in crate::core::laws::Article::ALL {
        let place = format!("{{art:{}}}", article.name());
        if out.contains(&place) {
            out = out.replace(&place, laws.cite(article));
        }
    }
    out
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// The language's own name, for messages.
    pub name: String,
    /// The language code handed to speech synthesizers ("de", "en" …).
    pub synthesizer: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileWords {
    pub fide: FileNames,
    pub letters: FileNames,
    pub nato: FileNames,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileNames {
    pub a: String,
    pub b: String,
    pub c: String,
    pub d: String,
    pub e: String,
    pub f: String,
    pub g: String,
    pub h: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranks {
    pub r1: String,
    pub r2: String,
    pub r3: String,
    pub r4: String,
    pub r5: String,
    pub r6: String,
    pub r7: String,
    pub r8: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pieces {
    pub king: String,
    pub queen: String,
    pub rook: String,
    pub bishop: String,
    pub knight: String,
    pub pawn: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Colors {
    pub white: String,
    pub black: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveWords {
    pub capture: String,
    pub check: String,
    pub checkmate: String,
    pub en_passant: String,
    pub promotion: String,
    pub castle_short: String,
    pub castle_long: String,
    pub suffix_separator: String,
    pub to: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phrases {
    pub no_move_yet: String,
    pub last_move: String,
    pub moves_separator: String,
    pub move_number: String,
    pub rank_scan: String,
    pub file_scan: String,
    pub scan_empty: String,
    pub piece_on_square: String,
    pub empty_square: String,
    pub position_side: String,
    pub list_separator: String,
    pub to_move: String,
    pub touch: String,
    pub promotion_pending: String,
    pub illegal: String,
    pub mismatch: String,
    pub mismatch_remove: String,
    pub mismatch_place: String,
    pub restored: String,
    pub touch_violation: String,
    pub touch_violation_capture: String,
    pub touch_violation_castle: String,
    pub draw_offer: String,
    pub claim_incorrect: String,
    pub claim_pending: String,
    pub claim_not_your_move: String,
    pub game_over_checkmate: String,
    pub game_over_stalemate: String,
    pub game_over_insufficient_material: String,
    pub game_over_threefold_repetition: String,
    pub game_over_fifty_moves: String,
    pub game_over_resignation: String,
    pub game_over_agreement: String,
    pub game_over_already: String,
    pub result_white_wins: String,
    pub result_black_wins: String,
    pub result_draw: String,
    pub no_clock: String,
    pub moves_completed: String,
    pub times: String,
    pub moves_to_control: String,
    pub one_move_to_control: String,
    pub hour: String,
    pub hours: String,
    pub minute: String,
    pub minutes: String,
    pub second: String,
    pub seconds: String,
    pub time_warning: String,
    pub flag: String,
    pub flag_claim_incorrect: String,
    pub clock_paused: String,
    pub clock_resumed: String,
    pub clock_set: String,
    pub arbiter_called: String,
    pub arbiter_coming: String,
    pub time_added: String,
    pub quickplay_claim: String,
    pub quickplay_claim_incorrect: String,
    pub quickplay_claim_not_here: String,
    pub quickplay_postponed: String,
    pub quickplay_rejected: String,
    pub quickplay_waits: String,
    pub no_quickplay_claim: String,
    pub game_over_quickplay_finish: String,
    pub game_over_flag: String,
    pub game_over_flag_draw: String,
    pub game_over_both_flags: String,
    pub game_over_illegal_moves: String,
    pub game_over_illegal_moves_draw: String,
    pub board_lost: String,
    pub board_back: String,
    pub braille_lost: String,
    pub braille_back: String,
    pub game_over_fivefold_repetition: String,
    pub game_over_seventy_five_moves: String,
    pub resumed: String,
    pub clocks_held: String,
    pub new_game: String,
    pub new_game_confirm: String,
    /// The resign key pressed once.
    pub resign_confirm: String,
    pub board_matches: String,
    pub held: String,
    pub retraced: String,
    pub relay_refused: String,
    pub adjourned: String,
    pub unconfirmed: String,
    pub moves_or: String,
    pub touch_violation_released: String,
    pub adjust_refused: String,
    pub claim_after_touch: String,
    pub draw_declined: String,
    pub promotion_unmade: String,
    pub draw_too_early: String,
    /// `{color}`: the player who has not offered a draw.
    pub no_draw_offer: String,
    /// The material balance: even, or who has what more.
    pub material_even: String,
    pub material_more: String,
    pub material_and: String,
    pub material_queen: String,
    pub material_queens: String,
    pub material_rook: String,
    pub material_rooks: String,
    pub material_exchange: String,
    pub material_exchanges: String,
    pub material_piece: String,
    pub material_pieces: String,
    pub material_pawn: String,
    pub material_pawns: String,
}

/// A language file that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VocabularyError {
    /// Where the words came from (a path, or "built-in fide").
    pub source: String,
    pub message: String,
}

impl std::fmt::Display for VocabularyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "language file {}: {}", self.source, self.message)
    }
}

impl std::error::Error for VocabularyError {}

impl Vocabulary {
    /// Parses a language file. `source` names it in error messages.
    pub fn parse(text: &str, source: &str) -> Result<Vocabulary, VocabularyError> {
        toml::from_str(text).map_err(|e| VocabularyError {
            source: source.to_string(),
            message: e.to_string().trim_end().to_string(),
        })
    }

    /// A built-in language by name (`fide`, `de`, `en`, `pt`, `es`, `ca`).
    pub fn built_in(name: &str) -> Option<Result<Vocabulary, VocabularyError>> {
        BUILT_IN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| Vocabulary::parse(text, &format!("built-in {n}")))
    }

    /// The names of the built-in languages.
    pub fn built_in_names() -> impl Iterator<Item = &'static str> {
        BUILT_IN.iter().map(|(n, _)| *n)
    }

    /// The built-in FIDE vocabulary.
    pub fn fide() -> Vocabulary {
        // The built-in file is checked by a unit test, so this cannot fail in
        // a released binary; fall back loudly rather than panic if it ever did.
        match Vocabulary::parse(FIDE, "built-in fide") {
            Ok(v) => v,
            Err(e) => panic!("the built-in FIDE vocabulary is broken: {e}"),
        }
    }

    pub fn file(&self, naming: FileNaming, file: File) -> &str {
        let f = match naming {
            FileNaming::Fide => &self.files.fide,
            FileNaming::Letters => &self.files.letters,
            FileNaming::Nato => &self.files.nato,
        };
        match file {
            File::A => &f.a,
            File::B => &f.b,
            File::C => &f.c,
            File::D => &f.d,
            File::E => &f.e,
            File::F => &f.f,
            File::G => &f.g,
            File::H => &f.h,
        }
    }

    pub fn rank(&self, rank: Rank) -> &str {
        let r = &self.ranks;
        match rank {
            Rank::First => &r.r1,
            Rank::Second => &r.r2,
            Rank::Third => &r.r3,
            Rank::Fourth => &r.r4,
            Rank::Fifth => &r.r5,
            Rank::Sixth => &r.r6,
            Rank::Seventh => &r.r7,
            Rank::Eighth => &r.r8,
        }
    }

    pub fn piece(&self, role: Role) -> &str {
        let p = &self.pieces;
        match role {
            Role::King => &p.king,
            Role::Queen => &p.queen,
            Role::Rook => &p.rook,
            Role::Bishop => &p.bishop,
            Role::Knight => &p.knight,
            Role::Pawn => &p.pawn,
        }
    }

    pub fn color(&self, color: Color) -> &str {
        match color {
            Color::White => &self.colors.white,
            Color::Black => &self.colors.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_fide_vocabulary_parses_and_has_the_appendix_e_names() {
        let v = Vocabulary::parse(FIDE, "fide").expect("fide.toml must parse");
        let files: Vec<&str> = File::ALL
            .iter()
            .map(|&f| v.file(FileNaming::Fide, f))
            .collect();
        assert_eq!(
            files,
            [
                "Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"
            ]
        );
        let ranks: Vec<&str> = Rank::ALL.iter().map(|&r| v.rank(r)).collect();
        assert_eq!(
            ranks,
            [
                "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"
            ]
        );
        assert_eq!(v.piece(Role::Bishop), "Laeufer");
        assert_eq!(v.moves.castle_long, "Lange Rochade");
    }

    #[test]
    fn every_built_in_language_has_its_own_display_words() {
        let english = DisplayWords::default();
        assert_eq!(english.moves, "Moves");
        for name in Vocabulary::built_in_names() {
            let v = Vocabulary::built_in(name).expect("listed").expect("parses");
            if name != "en" {
                assert_ne!(v.display, english, "{name} shows English words");
                assert_ne!(v.refusal, RefusalWords::default(), "{name}: [refusal]");
                assert_ne!(v.console, ConsoleWords::default(), "{name}: [console]");
                assert_ne!(v.opponent, OpponentWords::default(), "{name}: [opponent]");
                assert_ne!(v.practice, PracticeWords::default(), "{name}: [practice]");
                assert_ne!(v.menu, MenuWords::default(), "{name}: [menu]");
                assert_ne!(v.online, OnlineWords::default(), "{name}: [online]");
                assert_ne!(v.openings, OpeningWords::default(), "{name}: [openings]");
                assert_ne!(v.hall, HallWords::default(), "{name}: [hall]");
            }
        }
        let de = Vocabulary::built_in("de").expect("de").expect("parses");
        assert_eq!(de.display.moves, "Züge");
        // Each language names every built-in language in its menu.
        for name in Vocabulary::built_in_names() {
            let v = Vocabulary::built_in(name).expect("listed").expect("parses");
            for other in Vocabulary::built_in_names() {
                assert!(
                    v.menu.languages.contains_key(other),
                    "{name}: [menu.languages] {other}"
                );
            }
        }
    }

    #[test]
    fn a_language_file_without_display_words_shows_the_page_in_english() {
        let start = FIDE.find("\n[display]\n").expect("fide has [display]");
        let end = FIDE
            .find("# How words a synthesizer")
            .expect("and [spoken]");
        let without = format!("{}{}", &FIDE[..start], &FIDE[end..]);
        let v = Vocabulary::parse(&without, "old.toml").expect("still a language file");
        assert_eq!(v.display, DisplayWords::default());
        // A table that is there must be whole, and the missing key is named.
        let partial = FIDE.replace("moves = \"Züge\"\n", "");
        let err = Vocabulary::parse(&partial, "x.toml").unwrap_err();
        assert!(err.message.contains("moves"), "{}", err.message);
    }

    #[test]
    fn unknown_key_is_rejected_and_named() {
        let text = FIDE.replace("[files.fide]\n", "[files.fide]\nz = \"Zeta\"\n");
        let err = Vocabulary::parse(&text, "x.toml").unwrap_err();
        assert!(err.message.contains("unknown field `z`"), "{err}");
        assert!(err.to_string().contains("x.toml"), "{err}");
    }

    #[test]
    fn missing_key_is_rejected_and_named() {
        let text = FIDE.replace("knight = \"Springer\"\n", "");
        let err = Vocabulary::parse(&text, "x.toml").unwrap_err();
        assert!(err.message.contains("missing field `knight`"), "{err}");
    }

    /// The tables and keys of a language file, as `table.key` in its
    /// order; the synthesizers' tables (`[spoken]`, `[phonemes]`) and the
    /// pages' spellings (`[written]`) are each language's own.
    fn keys_of(text: &str) -> Vec<String> {
        fn walk(prefix: &str, table: &toml::Table, out: &mut Vec<String>) {
            for (key, value) in table {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                match value {
                    toml::Value::Table(t) => walk(&path, t, out),
                    _ => out.push(path),
                }
            }
        }
        let mut table: toml::Table = text.parse().expect("TOML");
        table.remove("spoken");
        table.remove("phonemes");
        table.remove("written");
        let mut out = Vec::new();
        walk("", &table, &mut out);
        out.sort();
        out
    }

    #[test]
    fn every_built_in_language_file_has_exactly_fides_keys() {
        let fide = keys_of(FIDE);
        assert!(fide.len() > 400, "{}", fide.len());
        for name in Vocabulary::built_in_names() {
            let text = BUILT_IN
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, text)| *text)
                .expect("listed");
            let keys = keys_of(text);
            let missing: Vec<&String> = fide.iter().filter(|k| !keys.contains(k)).collect();
            let extra: Vec<&String> = keys.iter().filter(|k| !fide.contains(k)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{name}: missing {missing:?}, not in fide.toml {extra:?}"
            );
        }
    }

    #[test]
    fn every_built_in_language_parses() {
        let names: Vec<&str> = Vocabulary::built_in_names().collect();
        assert_eq!(names, ["ca", "de", "en", "es", "fide", "pt"]);
        for name in names {
            let v = Vocabulary::built_in(name)
                .expect("listed")
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(!v.language.synthesizer.is_empty(), "{name}");
        }
        assert!(Vocabulary::built_in("xx").is_none());
    }

    #[test]
    fn the_console_cites_the_articles_in_the_games_edition() {
        use crate::core::laws::Edition;
        for name in Vocabulary::built_in_names() {
            let v = Vocabulary::built_in(name)
                .expect("listed")
                .unwrap_or_else(|e| panic!("{e}"));
            for laws in [Edition::Laws2023, Edition::Laws2008] {
                let cited = serde_json::to_string(&v.console.cited(laws)).expect("words");
                assert!(!cited.contains("{art:"), "{name}: a place unknown: {cited}");
            }
            let today = v.console.cited(Edition::Laws2023);
            let then = v.console.cited(Edition::Laws2008);
            assert!(
                today.illegal_move.contains("7.5.5"),
                "{name}: {}",
                today.illegal_move
            );
            assert!(
                then.illegal_move.contains("7.4b"),
                "{name}: {}",
                then.illegal_move
            );
            assert!(today.touch_report.contains("D.2.10.5"), "{name}");
            assert!(then.touch_report.contains("E2.9e"), "{name}");
            assert!(today.quickplay_claim.contains("III.5"), "{name}");
            assert!(then.quickplay_claim.contains("10.2"), "{name}");
        }
    }

    #[test]
    fn file_namings_differ() {
        let v = Vocabulary::fide();
        assert_eq!(v.file(FileNaming::Fide, File::C), "Cesar");
        assert_eq!(v.file(FileNaming::Letters, File::C), "C");
        assert_eq!(v.file(FileNaming::Nato, File::C), "Charlie");
    }
}
