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
            for line in client.seek(15, 10, false).expect("the seek is taken") {
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
                Some(m) => client.play(&id, m).expect("the move is taken"),
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
    let refused = client.play(&id, "e2e4").expect_err("the game is over");
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
    client.play(&id, "e2e4").expect("the move is taken");
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
