//! pegboard's lichess client (`lichess::client`, `lichess::stream`)
//! against the test lichess: a whole game through the Board API (a seek,
//! the event stream, the game's stream read into pegboard's types, every
//! move of a real game posted), every request it sent held against
//! lichess's OpenAPI description, and the faults a network gives: a wrong
//! token, a 429, a 500, a garbage line in a stream.

#[path = "support/lichess.rs"]
mod lichess;

use std::time::Duration;

use pegboard::lichess::client::{ApiError, Client};
use pegboard::lichess::stream::{self, Event, GameLine, Side};
use pegboard::lichess::token::Token;
use pegboard::record::pgn::read_games;
use shakmaty::CastlingMode;

const TOKEN: &str = "lip_ClientToken123456789";

fn token() -> Token {
    Token::new(TOKEN).expect("a token")
}

/// A real game's moves, in UCI.
fn record() -> Vec<String> {
    let path = format!(
        "{}/tests/games/kasparov-deep-blue-1997.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let games = read_games(&std::fs::read(&path).expect("games")).expect("read");
    let (_, _, moves) = pegboard::sim::moves_of(&games[1].record).expect("moves");
    moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

/// A seek, answered on the event stream: the game's id.
fn seek_a_game(client: &Client) -> String {
    let mut events = client.events().expect("the event stream opens");
    std::thread::scope(|s| {
        s.spawn(|| {
            // Held open until the opponent is found; then it ends.
            for line in client
                .seek(
                    pegboard::lichess::client::Seek::Clock {
                        minutes: 15,
                        increment: 10,
                    },
                    false,
                    "standard",
                )
                .expect("the seek is taken")
            {
                line.expect("a seek line");
            }
        });
        loop {
            let line = events.next().expect("the stream goes on").expect("a line");
            if let Some(Event::GameStart(game)) =
                stream::event(&line).expect("a line pegboard reads")
            {
                assert_eq!(game.color, Some(Side::White));
                break game.game_id;
            }
        }
    })
}

#[test]
fn a_whole_game_through_the_board_api_every_request_as_lichess_describes_it() {
    let moves = record();
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(300));
    server.state().script = moves
        .iter()
        .skip(1)
        .step_by(2)
        .map(|m| (m.clone(), Duration::from_millis(20)))
        .collect();
    let client = Client::new(&server.url(), token());
    let id = seek_a_game(&client);
    let mut last = None;
    for line in client.game(&id).expect("the game's stream opens") {
        let line = line.expect("a line");
        let state = match stream::game_line(&line).expect("a line pegboard reads") {
            // A keep-alive line.
            None => continue,
            Some(GameLine::Full(full)) => {
                assert_eq!(full.white.name.as_deref(), Some("Anna"));
                assert_eq!(full.black.name.as_deref(), Some("Bert"));
                assert_eq!(full.clock.map(|c| c.initial), Some(900_000));
                full.state
            }
            Some(GameLine::State(state)) => state,
            Some(other) => panic!("{other:?}"),
        };
        let played = state.moves().count();
        if state.under_way() && played % 2 == 0 {
            match moves.get(played) {
                Some(m) => client.play(&id, m).0.expect("the move is taken"),
                None => client.resign(&id).expect("resigned"),
            }
        }
        last = Some(state);
    }
    let last = last.expect("the game's states");
    assert_eq!(
        last.moves().collect::<Vec<_>>(),
        moves,
        "every move, in order"
    );
    assert!(!last.under_way());
    // An illegal move, or one out of turn, is refused with lichess's words.
    let refused = client.play(&id, "e2e4").0.expect_err("the game is over");
    assert!(
        matches!(&refused, ApiError::Refused { status: 400, error } if error.contains("over")),
        "{refused:?}"
    );
    // Every request pegboard sent, and every answer, is lichess's.
    let problems = server.openapi_problems();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_wrong_token_a_429_a_500_and_a_garbage_line_are_told_apart_and_the_token_is_in_none() {
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(300));
    let wrong = Client::new(
        &server.url(),
        Token::new("lip_NotTheToken99").expect("a token"),
    );
    let e = wrong.events().err().expect("refused");
    assert_eq!(e, ApiError::Unauthorized);
    let client = Client::new(&server.url(), token());
    server.state().faults.extend([429, 500]);
    assert_eq!(client.events().err(), Some(ApiError::TooManyRequests));
    let e = client.resign("nosuch").expect_err("a 500");
    assert!(matches!(e, ApiError::Refused { status: 500, .. }), "{e:?}");
    // A game whose stream then sends a garbage line before a state: the
    // line is an error pegboard names, and the stream goes on.
    server.state().script = [("e7e5".to_string(), Duration::from_millis(20))].into();
    let id = seek_a_game(&client);
    let mut lines = client.game(&id).expect("the stream opens");
    let first = lines.next().expect("a line").expect("read");
    assert!(matches!(
        stream::game_line(&first),
        Ok(Some(GameLine::Full(_)))
    ));
    server
        .state()
        .garbage
        .push_back("<html>502 Bad Gateway</html>".into());
    // The move's request is stamped when it is written whole to the
    // connection: after the call began, before its answer came back.
    let before = std::time::Instant::now();
    let (taken, written) = client.play(&id, "e2e4");
    let answered = std::time::Instant::now();
    taken.expect("the move is taken");
    let written = written.expect("the request was written");
    assert!(before <= written && written <= answered);
    let mut errors = Vec::new();
    let mut states = 0;
    for line in lines.by_ref() {
        match stream::game_line(&line.expect("read")) {
            Ok(Some(GameLine::State(_))) => {
                states += 1;
                if states == 2 {
                    break;
                }
            }
            Ok(_) => {}
            Err(e) => errors.push(e.to_string()),
        }
    }
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("not a JSON object"), "{errors:?}");
    // No error pegboard made holds the token.
    for e in [
        format!("{:?}", ApiError::Unauthorized),
        ApiError::Unauthorized.to_string(),
        format!("{:?}", token()),
        token().to_string(),
    ] {
        assert!(!e.contains(TOKEN), "{e}");
    }
}

#[test]
fn the_account_says_whose_the_token_is_and_whether_it_may_play() {
    let server = lichess::Lichess::start(TOKEN, Duration::from_millis(300));
    let client = Client::new(&server.url(), token());
    let account = client.account().expect("lichess knows the token");
    assert_eq!(account.username, "Anna");
    assert_eq!(account.scopes, Some(vec!["board:play".to_string()]));
    assert_eq!(account.may_play(), Some(true));
    // A token made for other things may not play.
    server.token_scopes("challenge:read, puzzle:read");
    let account = client.account().expect("still known");
    assert_eq!(
        account.scopes,
        Some(vec!["challenge:read".into(), "puzzle:read".into()])
    );
    assert_eq!(account.may_play(), Some(false));
    server.token_scopes("");
    assert_eq!(client.account().expect("known").may_play(), Some(false));
    // A token lichess does not know.
    let wrong = Client::new(
        &server.url(),
        Token::new("lip_NotTheToken99").expect("a token"),
    );
    assert_eq!(wrong.account(), Err(ApiError::Unauthorized));
    // Nothing answers: no account, and the token in no error.
    let nobody = Client::new("http://127.0.0.1:1", token());
    let e = nobody.account().expect_err("nothing there");
    assert!(matches!(&e, ApiError::Transport(_)), "{e:?}");
    assert!(!format!("{e:?}{e}").contains(TOKEN), "{e}");
    // The request and the account as lichess describes them.
    let problems = server.openapi_problems();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

mod link {
    use super::*;
    use pegboard::lichess::link::{Link, Report, Timing};
    use std::sync::Arc;

    /// Short waits, so that a test of a minute's wait takes a second.
    fn quick() -> Timing {
        Timing {
            first: Duration::from_millis(50),
            most: Duration::from_millis(400),
            too_many: Duration::from_millis(1500),
            silence: Duration::from_millis(2000),
        }
    }

    /// The link's reports until `until` says stop (or 10 s pass).
    fn reports_until(link: &Link, until: impl Fn(&[Report]) -> bool) -> Vec<Report> {
        let mut seen = Vec::new();
        let end = std::time::Instant::now() + Duration::from_secs(10);
        while !until(&seen) && std::time::Instant::now() < end {
            // (The link says when each connection opens: passed over here.)
            if let Some(r) = link
                .next(Duration::from_millis(100))
                .filter(|r| *r != Report::Opened)
            {
                seen.push(r);
            }
        }
        seen
    }

    /// When the event stream was asked for, in seconds, in order.
    fn event_streams_asked(server: &lichess::Lichess) -> Vec<f64> {
        server
            .state()
            .received_at
            .iter()
            .filter(|(_, r)| r.contains("/api/stream/event"))
            .map(|(at, _)| *at)
            .collect()
    }

    fn lost(seen: &[Report]) -> usize {
        seen.iter().filter(|r| matches!(r, Report::Lost(_))).count()
    }

    fn back(seen: &[Report]) -> usize {
        seen.iter().filter(|r| **r == Report::Back).count()
    }

    #[test]
    fn a_stream_cut_in_the_middle_of_a_game_is_opened_again_and_told_once_each_way() {
        let server = lichess::Lichess::start(TOKEN, Duration::from_millis(200));
        server.state().script = [
            ("e7e5".to_string(), Duration::from_millis(20)),
            ("g8f6".to_string(), Duration::from_millis(20)),
        ]
        .into();
        let client = Arc::new(Client::new(&server.url(), token()));
        let id = seek_a_game(&client);
        let link = Link::game(client.clone(), &id, quick());
        let seen = reports_until(&link, |s| s.len() == 1);
        assert!(
            matches!(&seen[0], Report::Line(l) if l.contains("gameFull")),
            "{seen:?}"
        );
        // The network fails and stays down a while (the next two tries
        // are refused) while the game goes on (a move made meanwhile); the
        // player is told once, and once that it is back, with the whole
        // game again.
        server.state().stream_faults.extend([500, 500]);
        server.cut();
        std::thread::sleep(Duration::from_millis(20));
        client.play(&id, "e2e4").0.expect("the move is taken");
        let seen = reports_until(&link, |s| {
            s.iter()
                .any(|r| matches!(r, Report::Line(l) if l.contains("e2e4 e7e5")))
        });
        assert_eq!(lost(&seen), 1, "{seen:?}");
        assert_eq!(back(&seen), 1, "{seen:?}");
        let after: Vec<&Report> = seen.iter().skip_while(|r| **r != Report::Back).collect();
        assert!(
            matches!(after.get(1), Some(Report::Line(l)) if l.contains("gameFull")),
            "{seen:?}"
        );
        // lila closes a game's stream cleanly for other reasons than its
        // end (a newer stream for the same game): the link opens it again
        // without a word, with the whole game.
        let before = server.state().game_streams_opened;
        server.close_cleanly();
        let seen = reports_until(&link, |s| {
            s.iter()
                .any(|r| matches!(r, Report::Line(l) if l.contains("gameFull")))
        });
        assert_eq!((lost(&seen), back(&seen)), (0, 0), "{seen:?}");
        assert!(server.state().game_streams_opened > before);
        // The game ends: the final state is what says so; the stream is
        // opened again (with the whole game, over) until the link stops.
        client.resign(&id).expect("resigned");
        let seen = reports_until(&link, |s| {
            s.iter()
                .any(|r| matches!(r, Report::Line(l) if l.contains("\"resign\"")))
        });
        assert_eq!(lost(&seen), 0, "{seen:?}");
        link.stop();
    }

    #[test]
    fn a_429_waits_its_minute_a_500_backs_off_and_a_silent_stream_is_taken_as_lost() {
        let server = lichess::Lichess::start(TOKEN, Duration::from_millis(200));
        let client = Arc::new(Client::new(&server.url(), token()));
        // A 429: no request comes until the wait has passed.
        server.state().faults.push_back(429);
        let started = std::time::Instant::now();
        let link = Link::events(client.clone(), quick());
        let seen = reports_until(&link, |s| s.contains(&Report::Back));
        // Told once that it is lost and once that it is back (the wait for
        // `Back` above gives up after 10 s, so it must be asserted).
        assert_eq!((lost(&seen), back(&seen)), (1, 1), "{seen:?}");
        assert!(started.elapsed() >= Duration::from_millis(1500), "{seen:?}");
        let asked = event_streams_asked(&server);
        assert_eq!(asked.len(), 2, "one refused, one after the wait");
        assert!(asked[1] - asked[0] >= 1.5, "asked again after {asked:?}");
        drop(link);
        // 500s: asked again, each time after a longer wait, told once.
        server.state().faults.extend([500, 500, 500]);
        let link = Link::events(client.clone(), quick());
        let seen = reports_until(&link, |s| s.contains(&Report::Back));
        assert_eq!((lost(&seen), back(&seen)), (1, 1), "{seen:?}");
        // Three refused and one let in: the waits between them double from
        // the first (50, 100, 200 ms). Only their least is held, which no
        // busy machine can shorten.
        let asked = event_streams_asked(&server);
        let asked = &asked[asked.len() - 4..];
        let gaps: Vec<f64> = asked.windows(2).map(|w| w[1] - w[0]).collect();
        for (gap, least) in gaps.iter().zip([0.050, 0.100, 0.200]) {
            assert!(*gap >= least, "waits {gaps:?}, the least {least}");
        }
        // Silent past its limit (no keep-alive line): lost, and opened
        // again when the server speaks.
        server.state().silent = true;
        let seen = reports_until(&link, |s| lost(s) == 1);
        assert!(
            matches!(seen.last(), Some(Report::Lost(why)) if why.contains("said nothing")),
            "{seen:?}"
        );
        server.state().silent = false;
        let seen = reports_until(&link, |s| s.contains(&Report::Back));
        assert_eq!(back(&seen), 1, "{seen:?}");
        drop(link);
        // A token lichess refuses ends the link at once.
        let wrong = Arc::new(Client::new(
            &server.url(),
            Token::new("lip_NotTheToken99").expect("a token"),
        ));
        let link = Link::events(wrong, quick());
        let seen = reports_until(&link, |s| !s.is_empty());
        assert!(matches!(&seen[0], Report::Refused(_)), "{seen:?}");
    }
}

mod held {
    use super::*;
    use pegboard::lichess::client::{Held, Hold, Seek, Terms};
    use std::time::Instant;

    fn terms() -> Terms {
        Terms {
            limit: 900,
            increment: 10,
            rated: false,
            color: "random".into(),
            variant: "standard".into(),
            fen: None,
            days: None,
        }
    }

    #[test]
    fn a_challenge_kept_alive_ends_with_lichesss_word_for_how_it_ended() {
        let server = lichess::Lichess::start(TOKEN, Duration::from_millis(300));
        server.state().challenge_answers.extend([
            lichess::ChallengeAnswer::decline(Duration::from_millis(300), "later"),
            lichess::ChallengeAnswer::Accept(Duration::from_millis(300)),
            lichess::ChallengeAnswer::Never,
        ]);
        let client = Client::new(&server.url(), token());
        let never = Hold::default();
        let hold = |stop: &Hold| {
            client
                .challenge("bert", &terms())
                .expect("sent")
                .hold(stop, Duration::from_secs(90))
        };
        assert_eq!(hold(&never), Ok(Held::Done("declined".into())));
        assert_eq!(hold(&never), Ok(Held::Done("accepted".into())));
        // Let go (a new game): the challenge's id, to cancel it with, for
        // lichess would keep it until it next writes to the connection.
        let stop = Hold::default();
        let held = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(500));
                stop.let_go();
            });
            hold(&stop)
        });
        let Ok(Held::LetGo(Some(id))) = held else {
            panic!("{held:?}")
        };
        // (Its owner knew it by then: its game would have its id.)
        assert_eq!(stop.challenge().as_deref(), Some(id.as_str()));
        client.cancel_challenge(&id).expect("cancelled");
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut ended = server.state().challenge_outcomes.len();
        while ended < 3 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
            ended = server.state().challenge_outcomes.len();
        }
        let outcomes: Vec<String> = server
            .state()
            .challenge_outcomes
            .iter()
            .map(|(_, o)| o.clone())
            .collect();
        assert_eq!(outcomes, ["declined", "accepted", "canceled"]);
        let problems = server.openapi_problems();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_seek_that_says_nothing_past_its_limit_is_given_up() {
        // lila's seek says something every 10 s (a blank line); a half-open
        // connection says nothing at all: given up after `silence`, with
        // an error, so that the seek is made again.
        let server = lichess::Lichess::start(TOKEN, Duration::from_millis(300));
        server.state().seek_pairs_after = Duration::from_secs(3600);
        let client = Client::new(&server.url(), token());
        let never = Hold::default();
        let asked = Instant::now();
        let held = client
            .seek(
                Seek::Clock {
                    minutes: 15,
                    increment: 10,
                },
                false,
                "standard",
            )
            .expect("the seek is taken")
            .hold(&never, Duration::from_millis(1500));
        assert!(
            matches!(&held, Err(ApiError::Transport(why)) if why.contains("said nothing")),
            "{held:?}"
        );
        let waited = asked.elapsed();
        assert!(waited >= Duration::from_millis(1500), "{waited:?}");
        // …and cancelled, as pegboard does: lichess would hold it until
        // its next keep-alive, and refuse a second seek meanwhile.
        client.cancel_seek().expect("cancelled");
        // lila's own keep-alive keeps a seek held with room to spare.
        let stop = Hold::default();
        let held_long = std::thread::scope(|s| {
            let h = s.spawn(|| {
                client
                    .seek(
                        Seek::Clock {
                            minutes: 15,
                            increment: 10,
                        },
                        false,
                        "standard",
                    )
                    .expect("taken again")
                    .hold(&stop, Duration::from_secs(20))
            });
            std::thread::sleep(Duration::from_secs(11));
            stop.let_go();
            h.join().expect("held")
        });
        assert_eq!(held_long, Ok(Held::LetGo(None)));
    }

    #[test]
    fn a_seek_whose_answer_never_begins_is_given_up_within_the_answers_time() {
        let server = lichess::Lichess::start(TOKEN, Duration::from_millis(300));
        server.state().silent = true;
        let client = Client::new(&server.url(), token()).answering_within(Duration::from_secs(1));
        let asked = Instant::now();
        let (tx, rx) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            let seek = client.seek(
                Seek::Clock {
                    minutes: 15,
                    increment: 10,
                },
                false,
                "standard",
            );
            let _ = tx.send(seek.err());
        });
        // (Without a limit it would wait for ever: 15 s is plenty.)
        let failed = rx
            .recv_timeout(Duration::from_secs(15))
            .expect("the seek is given up");
        assert!(
            matches!(&failed, Some(ApiError::Transport(_))),
            "{failed:?}"
        );
        let waited = asked.elapsed();
        assert!(waited >= Duration::from_secs(1), "{waited:?}");
        server.state().silent = false;
    }
}
