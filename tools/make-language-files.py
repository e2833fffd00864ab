#!/usr/bin/env python3
"""Writes the de, en, pt, es and ca language files from fide.toml's layout.

fide.toml is the master: every other language file has exactly its keys and
comments, with the words translated below. Run it after adding a key to
fide.toml, then fill in the new words here. A language file can also be
written by hand; pegboard only needs the keys.

    python3 tools/make-language-files.py
"""
import pathlib
import re

LANG = pathlib.Path(__file__).resolve().parent.parent / "src" / "announce" / "lang"

COMMON_PHRASE_KEYS = [
    "no_move_yet", "last_move", "moves_separator", "move_number", "rank_scan",
    "file_scan", "scan_empty", "piece_on_square", "empty_square",
    "position_side", "list_separator", "to_move", "touch",
    "promotion_pending", "illegal", "mismatch", "mismatch_remove",
    "mismatch_place", "restored", "touch_violation", "touch_violation_capture",
    "touch_violation_castle", "draw_offer", "claim_incorrect", "claim_pending",
    "claim_not_your_move", "game_over_checkmate", "game_over_stalemate",
    "game_over_insufficient_material", "game_over_threefold_repetition",
    "game_over_fifty_moves", "game_over_resignation", "game_over_agreement",
    "game_over_already", "result_white_wins", "result_black_wins", "result_draw",
]


def words(language, synthesizer, letters, ranks, pieces, colors, moves, phrases):
    w = {("language", "name"): language, ("language", "synthesizer"): synthesizer}
    for f, v in zip("abcdefgh", letters):
        w[("files.letters", f)] = v
    for i, v in enumerate(ranks):
        w[("ranks", f"r{i + 1}")] = v
    for k, v in zip(["king", "queen", "rook", "bishop", "knight", "pawn"], pieces):
        w[("pieces", k)] = v
    w[("colors", "white")], w[("colors", "black")] = colors
    for k, v in moves.items():
        w[("moves", k)] = v
    assert set(phrases) == set(COMMON_PHRASE_KEYS), set(phrases) ^ set(COMMON_PHRASE_KEYS)
    for k, v in phrases.items():
        w[("phrases", k)] = v
    return w


LETTERS = list("ABCDEFGH")

TRANSLATIONS = {
    "de": words(
        "Deutsch", "de", LETTERS,
        ["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"],
        ["König", "Dame", "Turm", "Läufer", "Springer", "Bauer"],
        ("Weiß", "Schwarz"),
        dict(capture="schlägt", check="Schach", checkmate="Schachmatt",
             en_passant="en passant", promotion="Umwandlung in {piece}",
             castle_short="Kurze Rochade", castle_long="Lange Rochade",
             suffix_separator=", ", to="nach"),
        dict(
            no_move_yet="Noch kein Zug.",
            last_move="{number}. {color}: {move}",
            moves_separator=". ",
            move_number="Zug {number}, {color} am Zug.",
            rank_scan="Reihe {rank}: {pieces}.",
            file_scan="Linie {file}: {pieces}.",
            scan_empty="leer",
            piece_on_square="{color} {piece} {square}",
            empty_square="{square} leer",
            position_side="{color}: {pieces}",
            list_separator=", ",
            to_move="{color} am Zug",
            touch="{piece} {square} berührt",
            promotion_pending="Umwandlung auf {square}: welche Figur?",
            illegal="Unmöglicher Zug. Stellung wiederherstellen und neu ziehen.",
            mismatch="Brett stimmt nicht.",
            mismatch_remove="Entfernen von {square}.",
            mismatch_place="{color} {piece} auf {square} stellen.",
            restored="Brett stimmt wieder.",
            touch_violation="Berührt ist {piece} {square}: mit dieser Figur ziehen.",
            touch_violation_capture="Berührt ist {piece} {square}: diese Figur schlagen.",
            touch_violation_castle="König und Turm berührt: Rochade ausführen.",
            draw_offer="{color} bietet Remis an.",
            claim_incorrect="Remisreklamation nicht berechtigt.",
            claim_pending="Remisreklamation: der nächste Zug entscheidet.",
            claim_not_your_move="Reklamieren kann nur, wer am Zug ist.",
            game_over_checkmate="Schachmatt. {result}",
            game_over_stalemate="Patt. Remis.",
            game_over_insufficient_material="Remis, kein Matt mehr möglich.",
            game_over_threefold_repetition="Remis durch dreimalige Stellungswiederholung.",
            game_over_fifty_moves="Remis nach der Fünfzig-Züge-Regel.",
            game_over_resignation="{color} gibt auf. {result}",
            game_over_agreement="Remis vereinbart.",
            game_over_already="Die Partie ist beendet.",
            result_white_wins="Weiß gewinnt.",
            result_black_wins="Schwarz gewinnt.",
            result_draw="Remis.",
        ),
    ),
    "en": words(
        "English", "en", LETTERS,
        ["one", "two", "three", "four", "five", "six", "seven", "eight"],
        ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"],
        ("White", "Black"),
        dict(capture="takes", check="check", checkmate="checkmate",
             en_passant="en passant", promotion="promotes to {piece}",
             castle_short="Short castling", castle_long="Long castling",
             suffix_separator=", ", to="to"),
        dict(
            no_move_yet="No move yet.",
            last_move="{number}. {color}: {move}",
            moves_separator=". ",
            move_number="Move {number}, {color} to move.",
            rank_scan="Rank {rank}: {pieces}.",
            file_scan="File {file}: {pieces}.",
            scan_empty="empty",
            piece_on_square="{color} {piece} {square}",
            empty_square="{square} empty",
            position_side="{color}: {pieces}",
            list_separator=", ",
            to_move="{color} to move",
            touch="{piece} {square} touched",
            promotion_pending="Promotion on {square}: which piece?",
            illegal="Illegal move. Restore the position and move again.",
            mismatch="Board does not match.",
            mismatch_remove="Remove the piece from {square}.",
            mismatch_place="Put the {color} {piece} on {square}.",
            restored="Board matches again.",
            touch_violation="You touched the {piece} on {square}: move that piece.",
            touch_violation_capture="You touched the {piece} on {square}: capture that piece.",
            touch_violation_castle="King and rook touched: castle.",
            draw_offer="{color} offers a draw.",
            claim_incorrect="Draw claim is not correct.",
            claim_pending="Draw claim: the next move decides.",
            claim_not_your_move="Only the player to move can claim.",
            game_over_checkmate="Checkmate. {result}",
            game_over_stalemate="Stalemate. Draw.",
            game_over_insufficient_material="Draw, no mate is possible.",
            game_over_threefold_repetition="Draw by threefold repetition.",
            game_over_fifty_moves="Draw by the fifty-move rule.",
            game_over_resignation="{color} resigns. {result}",
            game_over_agreement="Draw agreed.",
            game_over_already="The game is over.",
            result_white_wins="White wins.",
            result_black_wins="Black wins.",
            result_draw="Draw.",
        ),
    ),
    "pt": words(
        "Português", "pt", LETTERS,
        ["um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito"],
        ["Rei", "Dama", "Torre", "Bispo", "Cavalo", "Peão"],
        ("Brancas", "Pretas"),
        dict(capture="toma", check="xeque", checkmate="xeque-mate",
             en_passant="en passant", promotion="promove a {piece}",
             castle_short="Roque pequeno", castle_long="Roque grande",
             suffix_separator=", ", to="para"),
        dict(
            no_move_yet="Ainda não há lances.",
            last_move="{number}. {color}: {move}",
            moves_separator=". ",
            move_number="Lance {number}, jogam as {color}.",
            rank_scan="Fila {rank}: {pieces}.",
            file_scan="Coluna {file}: {pieces}.",
            scan_empty="vazia",
            piece_on_square="{piece} {color} {square}",
            empty_square="{square} vazia",
            position_side="{color}: {pieces}",
            list_separator=", ",
            to_move="jogam as {color}",
            touch="{piece} {square} tocado",
            promotion_pending="Promoção em {square}: qual peça?",
            illegal="Lance ilegal. Reponha a posição e jogue de novo.",
            mismatch="O tabuleiro não confere.",
            mismatch_remove="Retire a peça de {square}.",
            mismatch_place="Coloque {piece} {color} em {square}.",
            restored="O tabuleiro confere de novo.",
            touch_violation="Tocou {piece} {square}: jogue com essa peça.",
            touch_violation_capture="Tocou {piece} {square}: capture essa peça.",
            touch_violation_castle="Rei e torre tocados: faça o roque.",
            draw_offer="As {color} propõem empate.",
            claim_incorrect="Reclamação de empate incorreta.",
            claim_pending="Reclamação de empate: o próximo lance decide.",
            claim_not_your_move="Só quem tem a vez pode reclamar.",
            game_over_checkmate="Xeque-mate. {result}",
            game_over_stalemate="Afogamento. Empate.",
            game_over_insufficient_material="Empate, não há mate possível.",
            game_over_threefold_repetition="Empate por tripla repetição.",
            game_over_fifty_moves="Empate pela regra dos cinquenta lances.",
            game_over_resignation="As {color} abandonam. {result}",
            game_over_agreement="Empate por acordo.",
            game_over_already="A partida terminou.",
            result_white_wins="Vitória das Brancas.",
            result_black_wins="Vitória das Pretas.",
            result_draw="Empate.",
        ),
    ),
    "es": words(
        "Español", "es", LETTERS,
        ["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho"],
        ["Rey", "Dama", "Torre", "Alfil", "Caballo", "Peón"],
        ("Blancas", "Negras"),
        dict(capture="captura", check="jaque", checkmate="jaque mate",
             en_passant="al paso", promotion="corona {piece}",
             castle_short="Enroque corto", castle_long="Enroque largo",
             suffix_separator=", ", to="a"),
        dict(
            no_move_yet="Todavía no hay jugadas.",
            last_move="{number}. {color}: {move}",
            moves_separator=". ",
            move_number="Jugada {number}, juegan las {color}.",
            rank_scan="Fila {rank}: {pieces}.",
            file_scan="Columna {file}: {pieces}.",
            scan_empty="vacía",
            piece_on_square="{piece} {color} {square}",
            empty_square="{square} vacía",
            position_side="{color}: {pieces}",
            list_separator=", ",
            to_move="juegan las {color}",
            touch="{piece} {square} tocado",
            promotion_pending="Coronación en {square}: ¿qué pieza?",
            illegal="Jugada ilegal. Restituya la posición y juegue de nuevo.",
            mismatch="El tablero no coincide.",
            mismatch_remove="Retire la pieza de {square}.",
            mismatch_place="Ponga {piece} {color} en {square}.",
            restored="El tablero coincide de nuevo.",
            touch_violation="Ha tocado {piece} {square}: juegue esa pieza.",
            touch_violation_capture="Ha tocado {piece} {square}: capture esa pieza.",
            touch_violation_castle="Rey y torre tocados: enroque.",
            draw_offer="Las {color} ofrecen tablas.",
            claim_incorrect="La reclamación de tablas no procede.",
            claim_pending="Reclamación de tablas: decide la próxima jugada.",
            claim_not_your_move="Solo puede reclamar quien tiene el turno.",
            game_over_checkmate="Jaque mate. {result}",
            game_over_stalemate="Ahogado. Tablas.",
            game_over_insufficient_material="Tablas, no es posible dar mate.",
            game_over_threefold_repetition="Tablas por triple repetición.",
            game_over_fifty_moves="Tablas por la regla de las cincuenta jugadas.",
            game_over_resignation="Las {color} abandonan. {result}",
            game_over_agreement="Tablas de mutuo acuerdo.",
            game_over_already="La partida ha terminado.",
            result_white_wins="Ganan las Blancas.",
            result_black_wins="Ganan las Negras.",
            result_draw="Tablas.",
        ),
    ),
    "ca": words(
        "Català", "ca", LETTERS,
        ["u", "dos", "tres", "quatre", "cinc", "sis", "set", "vuit"],
        ["Rei", "Dama", "Torre", "Alfil", "Cavall", "Peó"],
        ("Blanques", "Negres"),
        dict(capture="captura", check="escac", checkmate="escac i mat",
             en_passant="en passant", promotion="corona {piece}",
             castle_short="Enroc curt", castle_long="Enroc llarg",
             suffix_separator=", ", to="a"),
        dict(
            no_move_yet="Encara no hi ha cap jugada.",
            last_move="{number}. {color}: {move}",
            moves_separator=". ",
            move_number="Jugada {number}, juguen les {color}.",
            rank_scan="Fila {rank}: {pieces}.",
            file_scan="Columna {file}: {pieces}.",
            scan_empty="buida",
            piece_on_square="{piece} {color} {square}",
            empty_square="{square} buida",
            position_side="{color}: {pieces}",
            list_separator=", ",
            to_move="juguen les {color}",
            touch="{piece} {square} tocat",
            promotion_pending="Coronació a {square}: quina peça?",
            illegal="Jugada il·legal. Restituïu la posició i torneu a jugar.",
            mismatch="El tauler no coincideix.",
            mismatch_remove="Retireu la peça de {square}.",
            mismatch_place="Poseu {piece} {color} a {square}.",
            restored="El tauler torna a coincidir.",
            touch_violation="Heu tocat {piece} {square}: jugueu aquesta peça.",
            touch_violation_capture="Heu tocat {piece} {square}: captureu aquesta peça.",
            touch_violation_castle="Rei i torre tocats: feu l'enroc.",
            draw_offer="Les {color} ofereixen taules.",
            claim_incorrect="La reclamació de taules no és correcta.",
            claim_pending="Reclamació de taules: decideix la propera jugada.",
            claim_not_your_move="Només pot reclamar qui té el torn.",
            game_over_checkmate="Escac i mat. {result}",
            game_over_stalemate="Ofegat. Taules.",
            game_over_insufficient_material="Taules, no és possible fer mat.",
            game_over_threefold_repetition="Taules per triple repetició.",
            game_over_fifty_moves="Taules per la regla de les cinquanta jugades.",
            game_over_resignation="Les {color} abandonen. {result}",
            game_over_agreement="Taules per acord.",
            game_over_already="La partida ha acabat.",
            result_white_wins="Guanyen les Blanques.",
            result_black_wins="Guanyen les Negres.",
            result_draw="Taules.",
        ),
    ),
}

CLOCK_PHRASE_KEYS = ['no_clock', 'moves_completed', 'times', 'moves_to_control', 'one_move_to_control', 'hour',
 'hours', 'minute', 'minutes', 'second', 'seconds', 'time_warning', 'flag',
 'both_flags', 'flag_claim_incorrect', 'clock_paused', 'clock_resumed',
 'clock_set', 'time_added', 'quickplay_claim', 'quickplay_claim_incorrect',
 'game_over_flag', 'game_over_flag_draw', 'game_over_both_flags',
 'game_over_illegal_moves', 'game_over_illegal_moves_draw']

# The clock's words, per language.
CLOCK = {'de': {'no_clock': 'Keine Uhr eingestellt.',
        'moves_completed': 'Zug {moves}.',
        'times': '{white} {white_time}, {black} {black_time}.',
        'moves_to_control': 'Noch {moves} Züge bis zur Zeitkontrolle.',
        'one_move_to_control': 'Noch ein Zug bis zur Zeitkontrolle.',
        'hour': 'eine Stunde',
        'hours': '{n} Stunden',
        'minute': 'eine Minute',
        'minutes': '{n} Minuten',
        'second': 'eine Sekunde',
        'seconds': '{n} Sekunden',
        'time_warning': '{color} noch {time}.',
        'flag': 'Zeit abgelaufen: {color}.',
        'both_flags': 'Beide Zeiten abgelaufen. Die Partie geht weiter.',
        'flag_claim_incorrect': 'Die Zeit des Gegners ist nicht abgelaufen.',
        'clock_paused': 'Uhr angehalten.',
        'clock_resumed': 'Uhr läuft.',
        'clock_set': 'Uhr gestellt.',
        'time_added': '{time} mehr für {color}.',
        'quickplay_claim': 'Remisantrag. Der Schiedsrichter entscheidet.',
        'quickplay_claim_incorrect': 'Remisantrag nur am Zug und mit weniger als zwei Minuten.',
        'game_over_flag': 'Zeit abgelaufen: {color}. {result}',
        'game_over_flag_draw': 'Zeit abgelaufen: {color}, aber kein Matt möglich. {result}',
        'game_over_both_flags': 'Beide Zeiten abgelaufen. {result}',
        'game_over_illegal_moves': 'Dritter regelwidriger Zug: {color}. {result}',
        'game_over_illegal_moves_draw': 'Dritter regelwidriger Zug: {color}, aber kein Matt '
                                        'möglich. {result}'},
 'en': {'no_clock': 'No clock is set.',
        'moves_completed': 'Move {moves}.',
        'times': '{white} {white_time}, {black} {black_time}.',
        'moves_to_control': '{moves} moves to the time control.',
        'one_move_to_control': 'One move to the time control.',
        'hour': 'one hour',
        'hours': '{n} hours',
        'minute': 'one minute',
        'minutes': '{n} minutes',
        'second': 'one second',
        'seconds': '{n} seconds',
        'time_warning': '{color}, {time} left.',
        'flag': "{color}'s flag has fallen.",
        'both_flags': 'Both flags have fallen. The game goes on.',
        'flag_claim_incorrect': "The opponent's flag has not fallen.",
        'clock_paused': 'Clock stopped.',
        'clock_resumed': 'Clock running.',
        'clock_set': 'Clock set.',
        'time_added': '{time} more for {color}.',
        'quickplay_claim': 'Draw claimed. The arbiter decides.',
        'quickplay_claim_incorrect': 'This draw claim needs your move and less than two minutes.',
        'game_over_flag': '{color} lost on time. {result}',
        'game_over_flag_draw': "{color}'s flag fell, but no mate is possible. {result}",
        'game_over_both_flags': 'Both flags fell. {result}',
        'game_over_illegal_moves': 'Third illegal move by {color}. {result}',
        'game_over_illegal_moves_draw': 'Third illegal move by {color}, but no mate is possible. '
                                        '{result}'},
 'pt': {'no_clock': 'Nenhum relógio configurado.',
        'moves_completed': 'Lance {moves}.',
        'times': '{white} {white_time}, {black} {black_time}.',
        'moves_to_control': 'Faltam {moves} lances para o controle de tempo.',
        'one_move_to_control': 'Falta um lance para o controle de tempo.',
        'hour': 'uma hora',
        'hours': '{n} horas',
        'minute': 'um minuto',
        'minutes': '{n} minutos',
        'second': 'um segundo',
        'seconds': '{n} segundos',
        'time_warning': '{color}, restam {time}.',
        'flag': 'Bandeira caída: {color}.',
        'both_flags': 'As duas bandeiras caíram. A partida continua.',
        'flag_claim_incorrect': 'A bandeira do adversário não caiu.',
        'clock_paused': 'Relógio parado.',
        'clock_resumed': 'Relógio em marcha.',
        'clock_set': 'Relógio acertado.',
        'time_added': 'Mais {time} para {color}.',
        'quickplay_claim': 'Empate reclamado. O árbitro decide.',
        'quickplay_claim_incorrect': 'Esta reclamação exige ser a sua vez e menos de dois minutos.',
        'game_over_flag': '{color} perdeu por tempo. {result}',
        'game_over_flag_draw': 'Bandeira caída: {color}, mas não há mate possível. {result}',
        'game_over_both_flags': 'As duas bandeiras caíram. {result}',
        'game_over_illegal_moves': 'Terceiro lance ilegal de {color}. {result}',
        'game_over_illegal_moves_draw': 'Terceiro lance ilegal de {color}, mas não há mate '
                                        'possível. {result}'},
 'es': {'no_clock': 'No hay reloj configurado.',
        'moves_completed': 'Jugada {moves}.',
        'times': '{white} {white_time}, {black} {black_time}.',
        'moves_to_control': 'Faltan {moves} jugadas para el control de tiempo.',
        'one_move_to_control': 'Falta una jugada para el control de tiempo.',
        'hour': 'una hora',
        'hours': '{n} horas',
        'minute': 'un minuto',
        'minutes': '{n} minutos',
        'second': 'un segundo',
        'seconds': '{n} segundos',
        'time_warning': '{color}, quedan {time}.',
        'flag': 'Bandera caída: {color}.',
        'both_flags': 'Han caído las dos banderas. La partida continúa.',
        'flag_claim_incorrect': 'La bandera del adversario no ha caído.',
        'clock_paused': 'Reloj parado.',
        'clock_resumed': 'Reloj en marcha.',
        'clock_set': 'Reloj ajustado.',
        'time_added': '{time} más para {color}.',
        'quickplay_claim': 'Tablas reclamadas. El árbitro decide.',
        'quickplay_claim_incorrect': 'Esta reclamación exige tener el turno y menos de dos '
                                     'minutos.',
        'game_over_flag': '{color} pierde por tiempo. {result}',
        'game_over_flag_draw': 'Bandera caída: {color}, pero no hay mate posible. {result}',
        'game_over_both_flags': 'Han caído las dos banderas. {result}',
        'game_over_illegal_moves': 'Tercera jugada ilegal de {color}. {result}',
        'game_over_illegal_moves_draw': 'Tercera jugada ilegal de {color}, pero no hay mate '
                                        'posible. {result}'},
 'ca': {'no_clock': 'No hi ha cap rellotge configurat.',
        'moves_completed': 'Jugada {moves}.',
        'times': '{white} {white_time}, {black} {black_time}.',
        'moves_to_control': 'Falten {moves} jugades per al control de temps.',
        'one_move_to_control': 'Falta una jugada per al control de temps.',
        'hour': 'una hora',
        'hours': '{n} hores',
        'minute': 'un minut',
        'minutes': '{n} minuts',
        'second': 'un segon',
        'seconds': '{n} segons',
        'time_warning': '{color}, queden {time}.',
        'flag': 'Bandera caiguda: {color}.',
        'both_flags': 'Han caigut les dues banderes. La partida continua.',
        'flag_claim_incorrect': "La bandera de l'adversari no ha caigut.",
        'clock_paused': 'Rellotge aturat.',
        'clock_resumed': 'Rellotge en marxa.',
        'clock_set': 'Rellotge ajustat.',
        'time_added': '{time} més per a {color}.',
        'quickplay_claim': "Taules reclamades. L'àrbitre decideix.",
        'quickplay_claim_incorrect': 'Aquesta reclamació exigeix tenir el torn i menys de dos '
                                     'minuts.',
        'game_over_flag': '{color} perd per temps. {result}',
        'game_over_flag_draw': 'Bandera caiguda: {color}, però no hi ha mat possible. {result}',
        'game_over_both_flags': 'Han caigut les dues banderes. {result}',
        'game_over_illegal_moves': 'Tercera jugada il·legal de {color}. {result}',
        'game_over_illegal_moves_draw': 'Tercera jugada il·legal de {color}, però no hi ha mat '
                                        'possible. {result}'}}

SENSOR_PHRASE_KEYS = ['board_lost', 'board_back']

SENSORS = {
    'de': {'board_lost': 'Brett nicht verbunden. Die Partie bleibt erhalten.',
           'board_back': 'Brett wieder verbunden.'},
    'en': {'board_lost': 'Board disconnected. The game is kept.',
           'board_back': 'Board connected again.'},
    'pt': {'board_lost': 'Tabuleiro desligado. A partida está guardada.',
           'board_back': 'Tabuleiro ligado de novo.'},
    'es': {'board_lost': 'Tablero desconectado. La partida se conserva.',
           'board_back': 'Tablero conectado de nuevo.'},
    'ca': {'board_lost': 'Tauler desconnectat. La partida es conserva.',
           'board_back': 'Tauler connectat de nou.'},
}

ENDING_PHRASE_KEYS = ['game_over_fivefold_repetition', 'game_over_seventy_five_moves']

# Endings without a claim (9.6).
ENDINGS = {
    'de': {'game_over_fivefold_repetition': 'Remis durch fünfmalige Stellungswiederholung.',
           'game_over_seventy_five_moves': 'Remis nach der Fünfundsiebzig-Züge-Regel.'},
    'en': {'game_over_fivefold_repetition': 'Draw by fivefold repetition.',
           'game_over_seventy_five_moves': 'Draw by the seventy-five-move rule.'},
    'pt': {'game_over_fivefold_repetition': 'Empate por quíntupla repetição.',
           'game_over_seventy_five_moves': 'Empate pela regra dos setenta e cinco lances.'},
    'es': {'game_over_fivefold_repetition': 'Tablas por quíntuple repetición.',
           'game_over_seventy_five_moves': 'Tablas por la regla de las setenta y cinco jugadas.'},
    'ca': {'game_over_fivefold_repetition': 'Taules per quíntuple repetició.',
           'game_over_seventy_five_moves': 'Taules per la regla de les setanta-cinc jugades.'},
}

GAME_PHRASE_KEYS = ['resumed', 'clocks_held', 'new_game', 'new_game_confirm']

# Game after game: a game resumed after a restart, and a new game.
GAMES = {
    'de': {'resumed': 'Partie fortgesetzt.',
           'clocks_held': 'Die Uhren stehen bis zur Taste Weiter.',
           'new_game': 'Neue Partie.',
           'new_game_confirm': 'Partie abbrechen? Zum Bestätigen noch einmal.'},
    'en': {'resumed': 'Game resumed.',
           'clocks_held': 'The clocks wait for the resume key.',
           'new_game': 'New game.',
           'new_game_confirm': 'Abandon this game? Press again to confirm.'},
    'pt': {'resumed': 'Partida retomada.',
           'clocks_held': 'Os relógios esperam pela tecla continuar.',
           'new_game': 'Nova partida.',
           'new_game_confirm': 'Abandonar esta partida? Carregue outra vez para confirmar.'},
    'es': {'resumed': 'Partida reanudada.',
           'clocks_held': 'Los relojes esperan a la tecla continuar.',
           'new_game': 'Nueva partida.',
           'new_game_confirm': '¿Abandonar esta partida? Pulse otra vez para confirmar.'},
    'ca': {'resumed': 'Partida represa.',
           'clocks_held': 'Els rellotges esperen la tecla continuar.',
           'new_game': 'Nova partida.',
           'new_game_confirm': 'Abandonar aquesta partida? Premeu un altre cop per confirmar.'},
}

BOARDS_PHRASE_KEYS = ['board_matches', 'held', 'retraced', 'relay_refused', 'adjourned']

# Two boards: a board that matches, a move held, a retrace, a relayed move refused.
BOARDS = {
    'de': {'board_matches': 'Ihr Brett stimmt mit der Partie überein.',
           'held': 'Der Zug wartet: das andere Brett stimmt nicht mit der Partie überein.',
           'retraced': 'Die Partie ist zurückgesetzt.',
           'relay_refused': 'Der gemeldete Zug ist nicht möglich.',
           'adjourned': 'Die Partie ist vertagt, der Abgabezug versiegelt.'},
    'en': {'board_matches': 'Your board matches the game.',
           'held': 'The move waits: the other board differs from the game.',
           'retraced': 'The game is set back.',
           'relay_refused': 'The relayed move is not possible.',
           'adjourned': 'The game is adjourned, the move sealed.'},
    'pt': {'board_matches': 'O seu tabuleiro está de acordo com a partida.',
           'held': 'O lance espera: o outro tabuleiro não está de acordo com a partida.',
           'retraced': 'A partida voltou atrás.',
           'relay_refused': 'O lance transmitido não é possível.',
           'adjourned': 'A partida foi adiada, o lance selado.'},
    'es': {'board_matches': 'Su tablero coincide con la partida.',
           'held': 'La jugada espera: el otro tablero no coincide con la partida.',
           'retraced': 'La partida ha vuelto atrás.',
           'relay_refused': 'La jugada transmitida no es posible.',
           'adjourned': 'La partida queda aplazada, la jugada sellada.'},
    'ca': {'board_matches': 'El vostre tauler coincideix amb la partida.',
           'held': "La jugada espera: l'altre tauler no coincideix amb la partida.",
           'retraced': 'La partida ha tornat enrere.',
           'relay_refused': 'La jugada transmesa no és possible.',
           'adjourned': 'La partida queda ajornada, la jugada segellada.'},
}

OUTAGE_PHRASE_KEYS = ['unconfirmed', 'moves_or', 'touch_violation_released']

# Moves that may have been made while the board was not seen, and a piece
# released on a square as part of a move then moved elsewhere (4.6).
OUTAGE = {
    'de': {'unconfirmed': 'Nicht gesehen: {moves}? Wenn ja, gezogene Figuren anheben und wieder einsetzen.',
           'moves_or': ' oder ',
           'touch_violation_released': 'Zug mit {piece} auf {square} ausführen.'},
    'en': {'unconfirmed': 'Not seen: {moves}? If so, lift the moved pieces and put them down again.',
           'moves_or': ' or ',
           'touch_violation_released': 'The {piece} was released on {square}: finish the move there.'},
    'pt': {'unconfirmed': 'Não visto: {moves}? Se sim, levante as peças jogadas e volte a pousá-las.',
           'moves_or': ' ou ',
           'touch_violation_released': '{piece} largado em {square}: termine o lance aí.'},
    'es': {'unconfirmed': 'No visto: {moves}? Si es así, levante las piezas jugadas y vuelva a ponerlas.',
           'moves_or': ' o ',
           'touch_violation_released': '{piece} soltado en {square}: termine la jugada allí.'},
    'ca': {'unconfirmed': 'No vist: {moves}? Si és així, aixequeu les peces jugades i torneu-les a posar.',
           'moves_or': ' o ',
           'touch_violation_released': '{piece} deixat a {square}: acabeu la jugada allà.'},
}

DISPLAY_KEYS = ['title', 'board', 'board_table', 'repeat', 'to_play', 'clocks', 'status',
                'moves', 'result', 'dark', 'large', 'paused', 'reconnecting', 'takes',
                'en_passant', 'castling', 'promotes', 'empty', 'piece']

# The mirror page's words, per language.
DISPLAY = {
    'de': dict(title='pegboard-Spiegel', board='Brett',
               board_table='Das Brett als Tabelle der Felder',
               repeat='Auf Ihrem Brett auszuführen', to_play='auf Ihrem Brett ausführen',
               clocks='Uhren', status='Was geschieht', moves='Züge',
               result='Ergebnis: {result}', dark='dunkel', large='große Schrift',
               paused='angehalten', reconnecting='Verbindung unterbrochen, neuer Versuch …',
               takes='schlägt auf {square}',
               en_passant='en passant: den Bauern auf {square} entfernen',
               castling='Rochade: König {king}, Turm {rook}',
               promotes='Umwandlung in {piece}', empty='leer', piece='{piece} ({color})'),
    'en': dict(title='pegboard mirror', board='Board',
               board_table='The board as a table of squares',
               repeat='Move to play on your board', to_play='to play on your board',
               clocks='Clocks', status='What is going on', moves='Moves',
               result='Result: {result}', dark='dark', large='large type',
               paused='paused', reconnecting='Connection lost, reconnecting…',
               takes='takes on {square}', en_passant='en passant: take the pawn on {square}',
               castling='castling: king {king}, rook {rook}', promotes='promotes to {piece}',
               empty='empty', piece='{color} {piece}'),
    'pt': dict(title='espelho pegboard', board='Tabuleiro',
               board_table='O tabuleiro como tabela de casas',
               repeat='Lance a fazer no seu tabuleiro', to_play='a fazer no seu tabuleiro',
               clocks='Relógios', status='O que se passa', moves='Lances',
               result='Resultado: {result}', dark='escuro', large='letra grande',
               paused='parado', reconnecting='Ligação perdida, a tentar de novo…',
               takes='captura em {square}', en_passant='en passant: retire o peão de {square}',
               castling='roque: rei {king}, torre {rook}', promotes='promove a {piece}',
               empty='vazia', piece='{piece} ({color})'),
    'es': dict(title='espejo pegboard', board='Tablero',
               board_table='El tablero como tabla de casillas',
               repeat='Jugada para hacer en su tablero', to_play='para hacer en su tablero',
               clocks='Relojes', status='Qué ocurre', moves='Jugadas',
               result='Resultado: {result}', dark='oscuro', large='letra grande',
               paused='parado', reconnecting='Conexión perdida, reconectando…',
               takes='captura en {square}', en_passant='al paso: retire el peón de {square}',
               castling='enroque: rey {king}, torre {rook}', promotes='corona {piece}',
               empty='vacía', piece='{piece} ({color})'),
    'ca': dict(title='mirall pegboard', board='Tauler',
               board_table='El tauler com a taula de caselles',
               repeat='Jugada per fer al vostre tauler', to_play='per fer al vostre tauler',
               clocks='Rellotges', status='Què passa', moves='Jugades',
               result='Resultat: {result}', dark='fosc', large='lletra gran',
               paused='aturat', reconnecting='Connexió perduda, reconnectant…',
               takes='captura a {square}', en_passant='en passant: retireu el peó de {square}',
               castling='enroc: rei {king}, torre {rook}', promotes='corona {piece}',
               empty='buida', piece='{piece} ({color})'),
}

HEADERS = {
    "de": "# German: German piece names, numbers and phrase words.",
    "en": "# English: English piece names, numbers and phrase words.\n# \"Knight Felix three\", \"Bishop takes Cesar six, check\".",
    "pt": "# Portuguese: Portuguese piece names, numbers and phrase words.",
    "es": "# Spanish: Spanish piece names, numbers and phrase words.",
    "ca": "# Catalan: Catalan piece names, numbers and phrase words.",
}

KEEP = {"files.fide", "files.nato"}  # the same in every language

# Each language's [spoken] table: how its synthesizer is to say the words
# it misreads, with a comment for each where the reason is not plain.
# tests/pronunciation.rs holds each against the dictionaries.
GERMAN_SPOKEN = [
    ("Rochade", "Roschade", "Ro-SCHA-de: Duden gives [rɔˈxaːdə], also [rɔˈʃaːdə]. No spelling makes\n"
     "# espeak-ng stress its second syllable; the clips do (see [phonemes])."),
    ("Cesar", "Zäsar", "\"Zäsar\", as German players say the file name (Cäsar)."),
    ("David", "Daavitt", "DA-vid [ˈdaːvɪt], not da-VID."),
    ("Charlie", "Tschaarli", "TSCHAR-li, as the spelling alphabet says it."),
    ("Hotel", "Hotell", "ho-TELL."),
    ("Remis", "Remie", "re-MIE [rəˈmiː], without the s."),
    ("Remisantrag", "Remie-antrag", None),
    ("Remisreklamation", "Remie-reklamation", None),
    ("versiegelt", "versihgelt", "ver-SIE-gelt, über-EIN, wieder-HER-stellen: the stress where German has it."),
    ("überein", "über-ein", None),
    ("wiederherstellen", "wiederhehrstellen", None),
    ("en", "ang", "\"en passant\" is French, [ɑ̃ paˈsɑ̃]: espeak-ng has no spelling for its\n"
     "# nasal vowels; \"ang\" is nearer than \"ehn\". The clips say it right."),
]
# The FIDE file names as each language writes its own form of the name, so
# that its synthesizer stresses them as its speakers do (César, not ce-SAR).
SPOKEN = {
    "de": GERMAN_SPOKEN,
    "en": [("Cesar", "Caesar", "CAE-sar, as English says the name.")],
    "pt": [("Cesar", "César", "The file names as Portuguese writes them: CÉ-sar, FÉ-lix."),
           ("Felix", "Félix", None)],
    "es": [("Cesar", "César", "The file names as Spanish writes them: CÉ-sar, FÉ-lix, HÉC-tor."),
           ("Felix", "Félix", None), ("Hector", "Héctor", None)],
    "ca": [("Cesar", "Cèsar", "The file names as Catalan writes them: CÈ-sar, FÈ-lix, HÈC-tor."),
           ("Felix", "Fèlix", None), ("Hector", "Hèctor", None)],
}
# Each language's [phonemes] table: espeak-ng phonemes for the clip maker,
# for words no spelling gets right.
PHONEMES = {
    "de": [("Rochade", "rOS'A:d@"), ("Schachmatt", "Sax'mat"), ("en", "A~"), ("passant", "pas'A~")],
}


def toml_key(word):
    return word if word.isascii() and word.replace("_", "").isalnum() else f'"{word}"'


def write(code, table):
    master = (LANG / "fide.toml").read_text(encoding="utf-8").splitlines()
    # Drop fide.toml's own opening comment, keep the rest of its layout.
    start = next(i for i, l in enumerate(master) if not l.startswith("#"))
    out = [HEADERS[code], "#", "# Written by tools/make-language-files.py from fide.toml's layout."]
    section = None
    used = set()
    # fide.toml's own [spoken] table is for its words; each language
    # writes its own.
    end = next(i for i, l in enumerate(master) if l.startswith("# How words a synthesizer"))
    for line in master[start:end]:
        m = re.match(r"^\[(.+)\]$", line)
        if m:
            section = m.group(1)
        kv = re.match(r'^(\w+) = "(.*)"$', line)
        if kv and section not in KEEP:
            key = (section, kv.group(1))
            if key not in table:
                raise SystemExit(f"{code}: no word for {section}.{key[1]}")
            used.add(key)
            line = f'{kv.group(1)} = "{table[key]}"'
        out.append(line)
    unused = set(table) - used
    if unused:
        raise SystemExit(f"{code}: words for keys fide.toml lacks: {sorted(unused)}")
    out += master[end:next(i for i, l in enumerate(master) if l == "[spoken]")]
    out.append("[spoken]")
    for written, said, why in SPOKEN[code]:
        if why:
            out.append(f"# {why}")
        out.append(f'{toml_key(written)} = "{said}"')
    if code in PHONEMES:
        start = next(i for i, l in enumerate(master) if l.startswith("# How the clip maker"))
        out.append("")
        out += master[start:next(i for i, l in enumerate(master) if l == "[phonemes]") + 1]
        out += [f'{toml_key(written)} = "{said}"' for written, said in PHONEMES[code]]
    (LANG / f"{code}.toml").write_text("\n".join(out).rstrip() + "\n", encoding="utf-8")


for code, table in TRANSLATIONS.items():
    for phrases, keys in [(CLOCK, CLOCK_PHRASE_KEYS), (SENSORS, SENSOR_PHRASE_KEYS),
                          (ENDINGS, ENDING_PHRASE_KEYS), (GAMES, GAME_PHRASE_KEYS),
                          (BOARDS, BOARDS_PHRASE_KEYS), (OUTAGE, OUTAGE_PHRASE_KEYS)]:
        assert set(phrases[code]) == set(keys), code
        for key, value in phrases[code].items():
            table[("phrases", key)] = value
    assert set(DISPLAY[code]) == set(DISPLAY_KEYS), code
    for key, value in DISPLAY[code].items():
        table[("display", key)] = value
    write(code, table)
    print(f"wrote {code}.toml")
