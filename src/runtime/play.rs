//! `pegboard play`: the daemon. The configured sensors and keys feed the
//! controller at the scan rate; its events are printed (and, with
//! `--events`, written as JSON lines for a mirror display) and spoken, and
//! the speaker's start reports come back as `announced` inputs, which is
//! when a move counts as announced and the clock is pressed (E2.3).
//!
//! While the sensors are away (a serial scanner unplugged, stale data) the
//! controller is not fed: the last good reading stands, nothing is
//! concluded from the gap, and the game goes on when the readings return.
//! [`Presence`] decides when the board counts as lost and as back; the
//! controller hears it as the `board_lost` and `board_back` inputs, tells
//! the player, and judges a board that changed meanwhile as a mismatch to
//! put right, never as an illegal move.

use std::io::Write;

use crate::config::Config;
use crate::console::{Answer, Door, Request};
use crate::core::{Input, Stamped, StartPosition};
use crate::display::FaceKind;
use crate::display::Faces;
use crate::mirror::Mirror;
use crate::net::auth::Strength;
use crate::runtime::error::Result;
use crate::runtime::keeper::Keeper;
use crate::runtime::notify::Notifier;
use crate::runtime::outputs::Door as _;
use crate::runtime::outputs::emit;
use crate::runtime::parts;
use crate::runtime::presence::{Presence, PresenceChange, Trouble};
use crate::runtime::station::{Station, Stop, Tick};
use crate::runtime::voices::{FINAL_WORDS_WITHIN, SpeechSetup, Voices, announced};
use crate::sensors::poller::Lateness;
use crate::speech::Report;

/// The clock faces the configuration names: the TM1637 pair (on a build
/// with Raspberry Pi support), and the status line when `terminal` (standard
/// output is a terminal).
pub fn open_faces(config: &Config, terminal: bool) -> Result<Faces> {
    let mut faces = Faces::default();
    for kind in &config.display.faces {
        match kind {
            FaceKind::Terminal if terminal => faces = faces.with_status_line(),
            FaceKind::Terminal => {}
            #[cfg(feature = "rpi")]
            FaceKind::Tm1637 => faces.add(
                "tm1637",
                crate::runtime::rpi::open_tm1637(&config.display.tm1637)?,
            ),
            #[cfg(not(feature = "rpi"))]
            FaceKind::Tm1637 => {
                return Err(crate::runtime::open::usable(config).err().map_or_else(
                    || crate::runtime::Error::Hardware("tm1637 needs Raspberry Pi support".into()),
                    crate::runtime::Error::Config,
                ));
            }
        }
    }
    Ok(faces)
}

/// One turn of the scan loop, as the game sees it: the tick and its
/// instant in game time.
struct Turn {
    t: u64,
    tick: Tick,
    /// When the tick was taken, for [`LoopTiming::handled`].
    taken: std::time::Instant,
}

/// How the scan loop kept time: how late after they were due its scans
/// were taken, and how long after they were taken they were handled (a
/// turn that follows a change of the game waits until the journal has it
/// on the disk).
#[derive(Clone, Debug)]
pub struct LoopTiming {
    /// Where the scan loop ran in the processor's queue.
    pub place: crate::runtime::priority::Place,
    pub taken: Lateness,
    pub handled: Lateness,
    /// In a game on lichess: how long after the scan that completed each
    /// of the blind player's moves its post was sent.
    pub posted: Option<Lateness>,
}

/// Plays game after game until `stop`, showing the clock on `faces`: the
/// unfinished game in the journal directory if there is one, else a new
/// game from `start`; with the voices when `speak`. The choices the player
/// made in the spoken menu (kept in the journal directory) win over
/// `base`, the configuration. Returns how the scan loop kept time.
pub fn play(
    base: &Config,
    start: &StartPosition,
    speak: bool,
    json: bool,
    stop: &Stop,
    faces: Faces,
    out: &mut dyn Write,
) -> Result<LoopTiming> {
    let (config, words, voices) = with_choices(base, speak, out)?;
    let config = &config;
    let speak = speak && config.braille.speech;
    let started = crate::runtime::open::usable_engine(config)?;
    let mut station = Station::open(config)?;
    let mut events: Vec<Stamped> = Vec::new();
    let mut service = Notifier::from_env();
    // The first tick opens the game; its instant in game time is where
    // the journal's game stands (time pegboard was off is nobody's).
    let first = station.tick();
    let boards = config.board_names();
    let (mut keeper, game_t0) = Keeper::open(config, start, &boards, first.t, &mut events)?;
    let lichess = crate::runtime::lichess::seat(config)?;
    let Opened {
        requests,
        spoken_secret,
        braille,
        mirror,
    } = open_outputs(config, &words, &mut keeper, out)?;
    tell_files(&keeper, out)?;
    let first_t = first.t;
    let to_game = |tick_t: u64| game_t0 + tick_t.saturating_sub(first_t);
    service.ready();
    let mut session = Session {
        // What the engine and the voices are set up for, read before the
        // keeper goes in.
        chess960: keeper.controller().game().castling_mode() == shakmaty::CastlingMode::Chess960,
        applied: keeper.controller().settings().preferences.clone(),
        engine: engine_of(config, keeper.controller(), started),
        lichess,
        keys_for: None,
        keeper,
        events,
        trouble: Trouble::default(),
        presence: Presence::new(to_game(first.t)),
        other_lost: vec![None; config.boards.len()],
        boards,
        voices,
        mirror,
        braille,
        requests,
        spoken_secret,
        faces,
        json,
        base: base.clone(),
        speak,
        openings: crate::runtime::openings::Openings::default(),
    };
    let mut waiting: std::collections::VecDeque<Turn> = std::collections::VecDeque::new();
    waiting.push_back(Turn {
        t: to_game(first.t),
        tick: first,
        taken: std::time::Instant::now(),
    });
    let mut handled = Lateness::new(station.lateness().period());
    let mut now = game_t0;
    let place = station.begin();
    stop.count_from_now();
    while !stop.now() {
        service.alive(std::time::Instant::now());
        // A turn that follows a change of the game waits until that is on
        // the disk; the readings go on being taken meanwhile, on time.
        while session.keeper.ready()
            && let Some(turn) = waiting.pop_front()
        {
            handled.record(turn.taken.elapsed());
            now = turn.t;
            session.take(turn, out)?;
            session.follow_choices(now, &mut station, out)?;
        }
        session.show_clock(now, out)?;
        out.flush()?;
        let tick = station.tick();
        waiting.push_back(Turn {
            t: to_game(tick.t),
            tick,
            taken: std::time::Instant::now(),
        });
    }
    service.stopping();
    let posted = session.lichess.as_ref().map(|l| l.post_timing.clone());
    session.finish(now, out)?;
    Ok(LoopTiming {
        place,
        taken: station.lateness().clone(),
        handled,
        posted,
    })
}

/// The outputs beside the voices, open: the console's requests and its
/// secret spelt out, the Braille display, the mirror.
struct Opened {
    requests: Option<crossbeam_channel::Receiver<Request>>,
    spoken_secret: Option<String>,
    braille: Option<crate::runtime::braille::BrailleDisplay>,
    mirror: Option<Mirror>,
}

/// Opens the console, the Braille display and the mirror, each showing a
/// resumed game's events from the start.
fn open_outputs(
    config: &Config,
    words: &crate::announce::Phrasebook,
    keeper: &mut Keeper,
    out: &mut dyn Write,
) -> Result<Opened> {
    let view = parts::mirror_view(config, &words.words);
    let (door, requests) = open_console(config, out)?;
    let spoken_secret = door.as_ref().map(|d| spelt_out(&d.secret));
    let history = keeper.take_history();
    let braille = open_braille(config, words, &history, out)?;
    let mirror = crate::runtime::outputs::open_mirror(
        &crate::runtime::outputs::Serving::of(config),
        view,
        door,
        &history,
        out,
    )?;
    Ok(Opened {
        requests,
        spoken_secret,
        braille,
        mirror,
    })
}

/// Where the game is kept, told on `out`.
fn tell_files(keeper: &Keeper, out: &mut dyn Write) -> Result<()> {
    if let Some(files) = keeper.files() {
        writeln!(
            out,
            "pegboard: game {} is kept in {}",
            files.number,
            files.journal.display()
        )?;
    }
    Ok(())
}

/// The configuration with the spoken menu's kept choices over it (a file
/// that cannot be used is told on `out`), its words, and the voices
/// started on it when `speak`: the voices first (they may take a moment to
/// open), then the sensors, so that no reading waits in the meantime.
fn with_choices(
    base: &Config,
    speak: bool,
    out: &mut dyn Write,
) -> Result<(Config, crate::announce::Phrasebook, Option<Voices>)> {
    let (config, note) = crate::runtime::choices::overlaid(base);
    if let Some(note) = note {
        writeln!(out, "pegboard: {note}")?;
    }
    let words = parts::phrasebook(&config)?;
    // Braille alone: the display says everything, the voices nothing.
    let speak = speak && config.braille.speech;
    let voices = speak.then(|| SpeechSetup::of(&config, &words).spawn());
    Ok((config, words, voices))
}

/// The Braille display `[braille]` asks for, showing `history` (a resumed
/// game's events) from the start. One whose tables cannot be had is told
/// on `out` and left out: the game goes on without it.
fn open_braille(
    config: &Config,
    words: &crate::announce::Phrasebook,
    history: &[Stamped],
    out: &mut dyn Write,
) -> Result<Option<crate::runtime::braille::BrailleDisplay>> {
    let player = config.buttons.player.into();
    match crate::runtime::braille::BrailleDisplay::start(config, words, player) {
        Ok(Some(display)) => {
            display.show(history);
            Ok(Some(display))
        }
        Ok(None) => Ok(None),
        // Braille alone and no display: the player would have nothing.
        Err(e) if !config.braille.speech => Err(e),
        Err(e) => {
            writeln!(
                out,
                "pegboard: {e}; the game goes on without the Braille display"
            )?;
            Ok(None)
        }
    }
}

/// The console's door, when the configuration serves the console: the
/// door for the web server and the channel its inputs reach this loop on.
/// A secret that cannot be had closes the console, told on `out`.
fn open_console(
    config: &Config,
    out: &mut dyn Write,
) -> Result<(Option<Door>, Option<crossbeam_channel::Receiver<Request>>)> {
    if !config.console.enabled || config.mirror.listen.trim().is_empty() {
        return Ok((None, None));
    }
    let (tx, rx) = crossbeam_channel::bounded(64);
    if let Some(warning) = crate::runtime::console::exposed(config) {
        writeln!(out, "pegboard: {warning}")?;
    }
    match crate::runtime::console::secret(config) {
        Ok(secret) => Ok((
            Some(Door {
                requests: tx,
                secret: secret.into_bytes(),
                strength: if config.console.pin.is_some() {
                    Strength::Pin
                } else {
                    Strength::Generated
                },
            }),
            Some(rx),
        )),
        Err(e) => {
            writeln!(out, "pegboard: {e}; the console is closed")?;
            Ok((None, None))
        }
    }
}

/// The secret spelt out, one character a word, for the key that says it.
fn spelt_out(secret: &[u8]) -> String {
    String::from_utf8_lossy(secret)
        .chars()
        .map(|c| c.to_ascii_uppercase().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the scan loop holds from turn to turn: the game with its journal,
/// what the sensors and the voices are doing, and where events go.
struct Session<'a> {
    keeper: Keeper,
    /// Events decided and not yet sent out.
    events: Vec<Stamped>,
    trouble: Trouble,
    presence: Presence,
    /// Since when each other board's reading fails, once told.
    other_lost: Vec<Option<u64>>,
    /// The boards' names: the blind player's, then `[[boards]]`.
    boards: Vec<&'a str>,
    voices: Option<Voices>,
    mirror: Option<Mirror>,
    /// The blind player's Braille display, when `[braille]` asks for one.
    braille: Option<crate::runtime::braille::BrailleDisplay>,
    requests: Option<crossbeam_channel::Receiver<Request>>,
    spoken_secret: Option<String>,
    /// The engine's seat, when a player's moves are the engine's.
    engine: Option<crate::runtime::engine::EngineTurns>,
    /// The opponent's seat on lichess, when he plays there.
    lichess: Option<crate::runtime::lichess::LichessSeat>,
    /// The colour the keys were given for an online game.
    keys_for: Option<shakmaty::Color>,
    faces: Faces,
    json: bool,
    /// The configuration as given, before the menu's choices.
    base: Config,
    /// The choices the engine, the voices and the keys were set up with.
    applied: crate::core::settings::Choices,
    /// Whether the engine was told Chess960's castling rules.
    chess960: bool,
    speak: bool,
    /// The openings' classification the `opening` question is answered
    /// from, read when first asked.
    openings: crate::runtime::openings::Openings,
}

/// The engine's seat for the game `c` plays (its own seats: a game taken
/// up again keeps those it began with), when a seat is the engine's; it
/// takes over the engine `started` to check the configuration, if any.
fn engine_of(
    config: &Config,
    c: &crate::core::Controller,
    started: Option<crate::engine::Engine>,
) -> Option<crate::runtime::engine::EngineTurns> {
    let chess960 = c.game().castling_mode() == shakmaty::CastlingMode::Chess960;
    crate::runtime::engine::EngineTurns::open(
        &config.engine,
        &c.settings().seats,
        chess960,
        started,
    )
}

impl Session<'_> {
    /// A game that began with other choices than the last (the player
    /// chose them in the spoken menu): they are kept on disk, and the
    /// engine, the keys' owner and the voices follow them. A game that
    /// began with other castling rules (the arbiter set up a Chess960
    /// position) gets an engine told them.
    fn follow_choices(&mut self, t: u64, station: &mut Station, out: &mut dyn Write) -> Result<()> {
        // An online game's colour is the server's: the keys are its.
        let c = self.keeper.controller();
        if let Some(online) = c.online()
            && self.keys_for != Some(online.color)
        {
            station.set_player(online.color);
            if let Some(b) = &mut self.braille {
                b.set_player(online.color);
            }
            self.keys_for = Some(online.color);
        }
        // Compared in place: the scan loop allocates nothing for it.
        let chess960 = c.game().castling_mode() == shakmaty::CastlingMode::Chess960;
        if c.settings().preferences == self.applied && chess960 == self.chess960 {
            return Ok(());
        }
        let now = c.settings().preferences.clone();
        let config = parts::with_choices(&self.base, &now);
        // The engine is started anew only for another opponent, colour or
        // castling rules.
        if (&now.opponent, now.color, chess960)
            != (&self.applied.opponent, self.applied.color, self.chess960)
        {
            self.engine = engine_of(&config, self.keeper.controller(), None);
            self.chess960 = chess960;
        }
        self.follow_lichess(t, &now, &config, out)?;
        if now == self.applied {
            return Ok(());
        }
        if let Some(path) = crate::runtime::choices::path(&self.base)
            && let Err(e) = crate::runtime::choices::store(&path, &now)
        {
            writeln!(
                out,
                "pegboard: {e}; the choices hold for this session but are not kept"
            )?;
        }
        station.set_player(now.color);
        if let Some(b) = &mut self.braille {
            b.set_player(now.color);
        }
        let voice_changed = (now.rate, now.volume, &now.language)
            != (
                self.applied.rate,
                self.applied.volume,
                &self.applied.language,
            );
        self.applied = now;
        // Words that cannot be had (a language file gone) leave the voices
        // as they are: the game goes on.
        let words = match parts::phrasebook(&config) {
            Ok(words) => words,
            Err(e) => {
                writeln!(out, "pegboard: {e}; the voices keep their words")?;
                return Ok(());
            }
        };
        if self.speak && voice_changed {
            // The old voices finish what they were given on a thread of
            // their own; the scan loop does not wait for them.
            if let Some(old) = self.voices.take() {
                std::thread::spawn(move || old.finish(FINAL_WORDS_WITHIN));
            }
            self.voices = Some(SpeechSetup::of(&config, &words).spawn_in_background());
        }
        Ok(())
    }

    /// An opponent on lichess chosen in the spoken menu (or another way
    /// to find him, another clock, colour): the seat there is opened anew
    /// as the choices make `[lichess]`; one no more chosen is closed. No
    /// token kept: the player is told, and the game is a person's.
    fn follow_lichess(
        &mut self,
        t: u64,
        now: &crate::core::settings::Choices,
        config: &Config,
        out: &mut dyn Write,
    ) -> Result<()> {
        use crate::core::settings::Opponent;
        let was = &self.applied;
        let online = matches!(now.opponent, Opponent::Lichess(_));
        let was_online = matches!(was.opponent, Opponent::Lichess(_));
        if !(online || was_online)
            || (&now.opponent, &now.control, now.color) == (&was.opponent, &was.control, was.color)
        {
            return Ok(());
        }
        self.lichess = None;
        if !online {
            return Ok(());
        }
        match crate::runtime::lichess::seat(config) {
            Ok(seat) => self.lichess = seat,
            Err(e) => {
                writeln!(out, "pegboard: {e}")?;
                let notice = crate::core::online::ServerNotice::NoToken;
                self.keeper
                    .input(t, Input::OnlineNotice(notice), &mut self.events);
            }
        }
        Ok(())
    }

    /// One turn: the game brought to its instant, fed what the sensors,
    /// keys, console and voices say, and its events sent out.
    fn take(&mut self, turn: Turn, out: &mut dyn Write) -> Result<()> {
        let Turn { t, tick, taken } = turn;
        self.keeper.advance(t, &mut self.events);
        let mut notes = self.trouble.update(&tick);
        self.feed_boards(t, &tick, &mut notes);
        for input in tick.inputs {
            self.keeper.input(t, input, &mut self.events);
        }
        // The console's secret, asked for with a key: to the voices only,
        // spelt out, never as an event.
        if tick.token_asked
            && let (Some(v), Some(secret)) = (&self.voices, &self.spoken_secret)
        {
            v.say_words(secret);
        }
        self.feed_console(t);
        self.feed_braille(t, &mut notes);
        self.answer_opening(t, &mut notes);
        self.feed_engine(t, &mut notes);
        if let Some(l) = &mut self.lichess {
            l.feed(t, &mut self.keeper, &mut self.events, &mut notes);
        }
        self.feed_reports(t, &mut notes);
        // The engine is asked once the game stands where this turn left
        // it.
        if let Some(e) = &mut self.engine {
            e.ask(t, self.keeper.controller());
            e.analyse(self.keeper.controller());
        }
        // The blind player's executed moves, resignation and draw offer
        // go to lichess the turn they are made.
        if let Some(l) = &mut self.lichess {
            l.post(self.keeper.controller(), &self.events, taken);
        }
        notes.extend(self.keeper.notes());
        self.send_out(t, notes, out)
    }

    /// The opening's name the player asked for: once the classification
    /// is read (his first question begins its reading), the game's
    /// positions up to the ply he asked at are looked up in it (a Chess960
    /// game has none), and the answer is given to the game as the
    /// journaled `opening_classified`.
    fn answer_opening(&mut self, t: u64, notes: &mut Vec<String>) {
        let wanted = self.keeper.controller().opening_wanted();
        self.openings.settle(wanted.is_some(), notes);
        // Asked, and the classification read (or found missing): answered.
        let Some(ply) = wanted.filter(|_| self.openings.read_yet()) else {
            return;
        };
        let game = self.keeper.controller().game();
        let found = self
            .openings
            .get()
            .filter(|_| game.castling_mode() == shakmaty::CastlingMode::Standard)
            .and_then(|openings| {
                let moves: Vec<shakmaty::Move> = game
                    .moves()
                    .iter()
                    .take(ply as usize)
                    .map(|m| m.m)
                    .collect();
                openings.classify(game.start_position(), &moves)
            });
        let input = Input::OpeningClassified {
            ply,
            eco: found.map(|f| f.eco),
            family: found.and_then(|f| f.family),
        };
        self.keeper.input(t, input, &mut self.events);
    }

    /// The boards' readings: the blind player's board lost and back, and
    /// each board's scan. Another board's reading that fails is skipped
    /// (the board is believed to show what it last showed) and told once.
    fn feed_boards(&mut self, t: u64, tick: &Tick, notes: &mut Vec<String>) {
        if let Some(change) = self.presence.update(t, tick.board.is_ok()) {
            let input = match change {
                PresenceChange::Lost => Input::BoardLost,
                PresenceChange::Back => Input::BoardBack,
            };
            self.keeper.input(t, input, &mut self.events);
        }
        if let Ok(board) = tick.board
            && self.presence.feeds()
        {
            self.keeper.scan(t, 0, board, &mut self.events);
        }
        for (i, other) in tick.others.iter().enumerate() {
            let name = self.boards[i + 1];
            match other {
                Ok(board) => {
                    if self.other_lost[i].take().is_some() {
                        notes.push(format!("board {name}: read again"));
                    }
                    if let Some(index) = self.keeper.controller().board_index(name) {
                        self.keeper.scan(t, index, *board, &mut self.events);
                    }
                }
                Err(e) => {
                    if self.other_lost[i].is_none() {
                        notes.push(format!("board {name}: {e}; its readings wait"));
                        self.other_lost[i] = Some(t);
                    }
                }
            }
        }
    }

    /// The console's inputs: one refused is answered and said, and not
    /// journaled; one carried out is journaled like any other.
    fn feed_console(&mut self, t: u64) {
        let Some(requests) = &self.requests else {
            return;
        };
        for request in requests.try_iter() {
            let answer = match self.keeper.controller().refusal(t, &request.input) {
                Some(mut refused) => {
                    // In words at once: the console's answer says them.
                    self.keeper.tell(std::slice::from_mut(&mut refused));
                    self.events.push(refused.clone());
                    Answer::Refused(Box::new(refused))
                }
                None => {
                    let from = self.events.len();
                    self.keeper.input(t, request.input, &mut self.events);
                    Answer::Done(self.events[from..].to_vec())
                }
            };
            let _ = request.reply.send(answer);
        }
    }

    /// What the Braille display's keys asked, its moves shown (the
    /// announcement with Braille alone), and the display lost or back.
    fn feed_braille(&mut self, t: u64, notes: &mut Vec<String>) {
        let Some(b) = &mut self.braille else {
            return;
        };
        let mut inputs = Vec::new();
        b.inputs(&mut inputs, notes);
        for input in inputs {
            self.keeper.input(t, input, &mut self.events);
        }
    }

    /// The engine's moves, handed to the game; its troubles too, each an
    /// input (journaled) that the game tells as an event (and logged).
    fn feed_engine(&mut self, t: u64, notes: &mut Vec<String>) {
        let Some(e) = &mut self.engine else {
            return;
        };
        for trouble in e.feed(t, &mut self.keeper, &mut self.events, notes) {
            use crate::core::input::EngineTrouble;
            use crate::engine::EngineError;
            let trouble = match trouble {
                EngineError::Start(_) => EngineTrouble::CannotStart,
                EngineError::Crashed => EngineTrouble::Crashed,
                EngineError::Hung => EngineTrouble::Hung,
                EngineError::Malformed(_) => EngineTrouble::Malformed,
            };
            self.keeper
                .input(t, Input::EngineTrouble(trouble), &mut self.events);
        }
    }

    /// The speaker's reports: a voice's failure goes to the log (once;
    /// the speaker says each once); a move's start is its announcement.
    fn feed_reports(&mut self, t: u64, notes: &mut Vec<String>) {
        let Some(v) = &self.voices else {
            return;
        };
        for report in v.reports() {
            if let Report::VoiceFailed(f) = &report {
                notes.push(format!("voice {}: {}", f.voice, f.error));
            }
            if let Some(input) = announced(&report) {
                self.keeper.input(t, input, &mut self.events);
            }
        }
    }

    /// The turn's notes and events out: printed, said, mirrored; the
    /// scoresheet to the mirror when it changed.
    fn send_out(&mut self, t: u64, notes: Vec<String>, out: &mut dyn Write) -> Result<()> {
        let printed = !self.events.is_empty() || !notes.is_empty();
        if printed {
            self.faces.pause(out)?;
        }
        for message in notes {
            writeln!(out, "pegboard: {message}")?;
        }
        // Events may lead to more (the printed announcement).
        emit(
            &mut self.keeper,
            &mut self.events,
            self.voices.as_ref(),
            self.mirror.as_ref(),
            self.braille.as_ref(),
            out,
            self.json,
        )?;
        self.keeper.end_tick(t);
        if let (Some(m), Some(pgn)) = (&self.mirror, self.keeper.changed_scoresheet()) {
            m.scoresheet(pgn);
        }
        if printed {
            self.faces.resume(out)?;
        }
        Ok(())
    }

    /// The clock on the faces at `now`; a face's trouble is printed.
    fn show_clock(&mut self, now: u64, out: &mut dyn Write) -> Result<()> {
        if let Some(clock) = self.keeper.controller().clock() {
            for message in self.faces.show(now, &clock.face(now), out)? {
                self.faces.pause(out)?;
                writeln!(out, "pegboard: {message}")?;
                self.faces.resume(out)?;
            }
        }
        Ok(())
    }

    /// The end: the faces cleared, the mirror stopped, everything fed on
    /// the disk, the last words said.
    fn finish(mut self, now: u64, out: &mut dyn Write) -> Result<()> {
        self.faces.finish(out)?;
        if let Some(m) = self.mirror {
            m.stop();
        }
        for message in self.keeper.finish(now) {
            writeln!(out, "pegboard: {message}")?;
        }
        out.flush()?;
        if let Some(v) = self.voices {
            v.finish(FINAL_WORDS_WITHIN);
        }
        Ok(())
    }
}
