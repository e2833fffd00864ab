//! The `pegboard` command: parses the command line and hands each
//! command to its file under `cli/`.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// pegboard lets a blind or partially sighted player play a real,
/// FIDE-conformant game on a pegged chessboard: it sees touches and moves
/// from the board's reed switches, applies touch-move, and announces every
/// move in the FIDE words (Anna, Bella, Cesar ...).
#[derive(Parser)]
#[command(name = "pegboard", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a famous game through the whole controller in real time,
    /// speaking and printing each announcement. Needs no hardware; without a
    /// working voice it prints only.
    Demo(cli::demo::Args),
    /// Say something through the configured voices, to try them: a text, or
    /// a move as it would be announced.
    ///
    /// Examples: pegboard say "Springer Felix drei";
    /// pegboard say --move e2e4;
    /// pegboard say --move e1g1 --fen "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    Say(cli::say::Args),
    /// Read a sensor trace (JSON Lines, format 1) and print the events the
    /// controller concludes from it, one JSON object per line, as it reads.
    /// Simulated time: the output is the same on every run. The recording
    /// ends at its last line: a timer due later (a debounce window, a flag)
    /// does not fire unless --until says how far to go on. A malformed line
    /// stops the replay (exit code 2); a damaged last line, as a power cut
    /// leaves it, is reported after everything before it was replayed
    /// (exit code 3).
    Replay(cli::replay::Args),
    /// Play a game on the board: the daemon. Reads the configured sensors
    /// and keys, applies the Laws, speaks every move and answer, and prints
    /// each event (with --events also as JSON lines, for a mirror display).
    /// The opponent is a person at the board or on another board, an
    /// assistant relaying his moves, a chess engine (Stockfish, `[game]
    /// black_moves_on = "engine"`, at the strength `[engine] step` gives),
    /// or a player on lichess. Every game is kept in the journal directory
    /// ([journal] dir) and taken up again after a power cut or a restart.
    /// Type q and Enter, or stop the service, to end.
    Play(cli::play::Args),
    /// Record what the board's sensors deliver into a trace file, to replay
    /// later (pegboard replay FILE). Raw scans as they come, key presses as
    /// inputs. Type q and Enter to stop.
    Record(cli::record::Args),
    /// Check the sensors: lift and put back each peg, and pegboard says and
    /// prints the square; a live map of the board is shown, and at the end
    /// the squares that never changed, flicker or are stuck are listed.
    /// Type q and Enter to finish.
    HwTest(cli::hw_test::Args),
    /// Find the board's orientation: lift a1, then h1, then h8 (putting
    /// each back) when asked; the result is written into the configuration
    /// file's [board] table, keeping the rest of the file as it is.
    Calibrate(cli::calibrate::Args),
    /// Check a configuration file and say what is wrong with it.
    CheckConfig(cli::check_config::Args),
    /// Print a game's scoresheet as PGN (or in Braille, --brf), from the
    /// journal directory: the game being played or the last one, game N,
    /// or every game.
    Pgn(cli::pgn::Args),
    /// Print the secret that opens the console (/console on the mirror's
    /// address), made on first use and kept in the state directory, or the
    /// PIN set in [console] pin. Give it only to the assistant and the
    /// arbiter.
    ConsoleToken(cli::console_token::Args),
    /// Keep your lichess token where `play` finds it, checked with lichess
    /// first. It is never printed.
    ///
    /// Prints the lichess page that makes a token with "Play games with
    /// the board API" already chosen, reads the token you paste (not shown
    /// on a terminal), and asks lichess whose it is and whether it may
    /// play: one lichess refuses, or one without that scope, is not kept;
    /// one that could not be checked (offline) is, with a warning. It is
    /// kept in the [journal] dir of --config (without --config, in your
    /// own state directory), readable by that directory's owner alone.
    /// For the service, run it as root with the service's configuration:
    /// the token goes to the service's state directory, given to its
    /// user.
    ///
    ///   sudo pegboard lichess-token --config /etc/pegboard/pegboard.toml
    LichessToken(cli::lichess_token::Args),
    /// The tournament hall's hub: follow every board of a round (each its
    /// own pegboard, listed in [hall]), show the arbiter all of them at
    /// once with what needs him first, and give the public the round's
    /// games as one PGN (at /round.pgn, for a lichess broadcast's source),
    /// held back by [hall] delay_s; with [hall.push], push them to a
    /// lichess broadcast round too.
    ///
    ///   pegboard hall --config /etc/pegboard/hall.toml
    Hall(cli::hall::Args),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Demo(a) => cli::demo::run(a),
        Command::Say(a) => cli::say::run(a),
        Command::Replay(a) => cli::replay::run(a),
        Command::Play(a) => cli::play::run(a),
        Command::Record(a) => cli::record::run(a),
        Command::HwTest(a) => cli::hw_test::run(a),
        Command::Calibrate(a) => cli::calibrate::run(a),
        Command::CheckConfig(a) => cli::check_config::run(a),
        Command::Pgn(a) => cli::pgn::run(a),
        Command::ConsoleToken(a) => cli::console_token::run(a),
        Command::LichessToken(a) => cli::lichess_token::run(a),
        Command::Hall(a) => cli::hall::run(a),
    }
}
