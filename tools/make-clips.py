#!/usr/bin/env python3
"""Makes the recorded clip set and the earcons with free tools.

    python3 tools/make-clips.py [--out DIR] [LANGUAGE ...]     (default: fide)

--out DIR writes into DIR instead of sounds/ (tests/pronunciation.rs does,
to check that the shipped clips are what this makes).

For each language it reads src/announce/lang/LANGUAGE.toml, collects every
word pegboard can say in it (all words of the file, and the numbers 0 to 100 for
move numbers and times), has espeak-ng say each word (in espeak-ng's phonemes where the file's
[phonemes] table gives them: "Rochade" is said [[rOS'A:d@]], ro-SCHA-de;
else in its spoken form where the [spoken] table gives one: "Koenig" is
said "König"), trims the silence
around it with sox, and writes sounds/LANGUAGE/<word>.flac and
sounds/LANGUAGE/manifest.toml. It also writes the earcons,
sounds/earcons/*.wav, with sox.

Needs espeak-ng, sox and flac support in sox (Debian: espeak-ng sox
libsox-fmt-all). To use human recordings instead, replace the files (any
WAV or FLAC, all of one sample rate and channel count) and keep the
manifest's words.
"""
import pathlib
import re
import subprocess
import sys
import tempfile
import tomllib
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANG = ROOT / "src" / "announce" / "lang"
SOUNDS = ROOT / "sounds"
RATE = 16000
# espeak-ng words per minute: brisk, as players ask of talking clocks.
SPEED = 190
NUMBERS = range(0, 101)

# Earcons: short and distinct, made of sine tones (frequency Hz, seconds).
EARCONS = {
    "touched": [(880, 0.05)],
    "illegal": [(220, 0.12), (196, 0.18)],
    "mismatch": [(330, 0.08), (0, 0.04), (330, 0.08)],
    "restored": [(523, 0.07), (784, 0.1)],
    "promotion": [(523, 0.06), (659, 0.06), (784, 0.08)],
    "low_time": [(988, 0.06), (0, 0.05), (988, 0.06), (0, 0.05), (988, 0.06)],
    "flag": [(1175, 0.3)],
    "game_over": [(784, 0.12), (659, 0.12), (523, 0.25)],
}


def words_of(value):
    value = re.sub(r"\{[^}]*\}", " ", value)
    word = ""
    for c in value:
        if c.isalnum() or c in "-'·":
            word += c
        else:
            if word:
                yield word.lower()
            word = ""
    if word:
        yield word.lower()


def all_words(table):
    for section, content in table.items():
        # [spoken] and [phonemes] say how words are said, [written] how they
        # are shown on the pages: none of their values is a word of its own.
        # [display], [console] and [hall] are the pages', never spoken (pegboard's
        # announce::vocabulary::PAGE_TABLES).
        if section in ("language", "spoken", "phonemes", "written", "display", "console", "hall"):
            continue
        stack = [content]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, str):
                yield from words_of(item)


def slug(word):
    ascii_word = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_word).strip("_") or "w"


def run(*cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make_language(name, sounds):
    table = tomllib.loads((LANG / f"{name}.toml").read_text(encoding="utf-8"))
    voice = table["language"]["synthesizer"]
    words = sorted(set(all_words(table)) | {str(n) for n in NUMBERS})
    # The clip of a written word says its phonemes ([phonemes] table), else
    # its spoken form ([spoken] table), else the word. espeak-ng's command
    # line reads [[...]] as phonemes.
    spoken = {k.lower(): v for k, v in table.get("spoken", {}).items()}
    spoken |= {k.lower(): f"[[{v}]]" for k, v in table.get("phonemes", {}).items()}
    out = sounds / name
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.flac"):
        old.unlink()
    manifest = [
        f"# Word clips for the \"{name}\" language, made by tools/make-clips.py",
        f"# with espeak-ng (voice {voice}, {SPEED} words per minute). Keys are",
        "# lowercase words; values are files in this folder.",
        "",
        "[words]",
    ]
    used = set()
    with tempfile.TemporaryDirectory() as tmp:
        raw = pathlib.Path(tmp) / "raw.wav"
        for word in words:
            file = slug(word)
            while file in used:
                file += "_"
            used.add(file)
            run("espeak-ng", "-v", voice, "-s", str(SPEED), "-w", str(raw), spoken.get(word, word))
            run("sox", "-D", str(raw), "-r", str(RATE), "-c", "1", str(out / f"{file}.flac"),
                "silence", "1", "0.01", "0.5%", "reverse", "silence", "1", "0.01", "0.5%",
                "reverse")
            manifest.append(f'"{word}" = "{file}.flac"')
    (out / "manifest.toml").write_text("\n".join(manifest) + "\n", encoding="utf-8")
    print(f"{name}: {len(words)} clips in {out}")


def make_earcons(sounds):
    out = sounds / "earcons"
    out.mkdir(parents=True, exist_ok=True)
    for name, tones in EARCONS.items():
        parts = []
        with tempfile.TemporaryDirectory() as tmp:
            for i, (freq, secs) in enumerate(tones):
                part = pathlib.Path(tmp) / f"{i}.wav"
                if freq:
                    run("sox", "-D", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(part),
                        "synth", str(secs), "sine", str(freq), "fade", "q", "0.005",
                        str(secs), "0.02", "vol", "0.5")
                else:
                    run("sox", "-D", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(part),
                        "trim", "0", str(secs))
                parts.append(str(part))
            run("sox", "-D", *parts, str(out / f"{name}.wav"))
    print(f"earcons: {len(EARCONS)} in {out}")


if __name__ == "__main__":
    args = sys.argv[1:]
    sounds = SOUNDS
    if args[:1] == ["--out"]:
        if len(args) < 2:
            sys.exit("make-clips: --out needs a directory")
        sounds = pathlib.Path(args[1]).resolve()
        args = args[2:]
    for language in args or ["fide"]:
        make_language(language, sounds)
    make_earcons(sounds)
