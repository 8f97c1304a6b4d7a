"""Lexicons of other languages from the Debian word lists (CI installs the packages)."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiza.alphabet import find_tile_set
from qiza.languages import LANGUAGES, Language
from qiza.lexicon import LANGUAGE_LEXICONS, MAX_LENGTH, LexiconError, load_lexicon


def _lexicon_or_skip(name: str) -> object:
    language = LANGUAGES[name]
    if not language.path.is_file():
        pytest.skip(f"{language.path} is absent: apt-get install {language.package} (CI installs it)")
    return load_lexicon(name)


def _sample(tmp_path: Path, name: str, lines: list[str]) -> set[str]:
    path = tmp_path / "list.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return set(LANGUAGES[name].load(path).words)


def test_every_language_has_a_lexicon() -> None:
    assert sorted(LANGUAGES) == sorted(LANGUAGE_LEXICONS)
    for language in LANGUAGES.values():
        assert "not the official tournament list" in language.description
        assert language.package in language.description


def test_french_folds_every_accent(tmp_path: Path) -> None:
    words = _sample(tmp_path, "french-debian",
                    ["élève", "garçon", "cœur", "aujourd'hui", "arc-en-ciel", "Paris", "été", "ete", "a", "x" * 22])
    assert words == {"ELEVE", "GARCON", "COEUR", "ETE"}


def test_german_keeps_umlauts_and_nouns(tmp_path: Path) -> None:
    words = _sample(tmp_path, "german-debian", ["Straße", "Bär", "über", "Café", "ABC", "Ölmühle"])
    assert words == {"STRASSE", "BÄR", "ÜBER", "CAFE", "ÖLMÜHLE"}
    assert all(set(w) <= set(find_tile_set("german").letters) for w in words)


def test_spanish_keeps_ene_and_reads_digraphs_as_tiles(tmp_path: Path) -> None:
    lexicon = LANGUAGES["spanish-debian"].load(_write(tmp_path, ["chico", "año", "canción", "pingüino",
                                                                 "kiwi", "llamar", "perro"]))
    assert set(lexicon.words) == {"CHICO", "AÑO", "CANCION", "PINGUINO", "LLAMAR", "PERRO"}  # no K tile
    spanish = lexicon.tile_set
    assert spanish.name == "spanish"
    assert [spanish.char(t) for t in spanish.codes("CHICO")] == ["CH", "I", "C", "O"]
    assert [spanish.char(t) for t in spanish.codes("PERRO")] == ["P", "E", "RR", "O"]
    assert "chico" in lexicon and "CHICO" in lexicon


def test_catalan_middle_dot_is_one_tile(tmp_path: Path) -> None:
    words = _sample(tmp_path, "catalan-debian", ["col·legi", "plaça", "això", "Barcelona", "any", "yoga"])
    assert words == {"COL·LEGI", "PLAÇA", "AIXO", "ANY"}  # yoga: Catalan has no Y tile outside NY
    catalan = find_tile_set("catalan")
    assert len(catalan.codes("COL·LEGI")) == 6 and len(catalan.codes("ANY")) == 2


def test_polish_letters_are_kept(tmp_path: Path) -> None:
    assert _sample(tmp_path, "polish-debian", ["żółw", "źdźbło", "über"]) == {"ŻÓŁW", "ŹDŹBŁO"}


def test_italian_and_dutch_fold_accents(tmp_path: Path) -> None:
    assert _sample(tmp_path, "italian-debian", ["città", "perché", "l'acqua", "jazz"]) == {"CITTA", "PERCHE"}
    assert _sample(tmp_path, "dutch-debian", ["café", "ijs", "Amsterdam", "één"]) == {"CAFE", "IJS", "EEN"}


def test_words_without_a_vowel_are_abbreviations(tmp_path: Path) -> None:
    """The Debian lists hold unit symbols and abbreviations written without a period: German
    QM (Quadratmeter) and NR, French KG and KM (K is worth 10) were two-letter words of the
    lexicons ('qiza words twos'), which no Scrabble allows. Such words are dropped, but for
    the few interjections each list has."""
    assert _sample(tmp_path, "german-debian", ["qm", "kg", "Nr", "Kfz", "bzw", "Typ", "lyncht", "Öl", "hat"]) == {
        "TYP", "LYNCHT", "ÖL", "HAT"}
    assert _sample(tmp_path, "french-debian", ["kg", "km", "mm", "qqn", "pst", "pfft", "brrr", "été"]) == {
        "PST", "PFFT", "BRRR", "ETE"}
    assert _sample(tmp_path, "spanish-debian", ["pchs", "kg", "ay", "chal"]) == {"PCHS", "AY", "CHAL"}
    assert _sample(tmp_path, "catalan-debian", ["cm", "hm", "rpm", "any", "quan"]) == {"ANY", "QUAN"}
    assert _sample(tmp_path, "italian-debian", ["kg", "ha"]) == {"HA"}
    # the lists of its players (Polish) and lower-case Dutch tv, cd... are kept as they are
    assert _sample(tmp_path, "polish-debian", ["hm", "pst"]) == {"HM", "PST"}
    assert _sample(tmp_path, "dutch-debian", ["tv", "brr"]) == {"TV", "BRR"}
    report = LANGUAGES["german-debian"].playable(["qm", "Nr", "Typ"])[1]
    assert report.skipped["without a vowel (abbreviations, unit symbols)"] == 2


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_absent_list_names_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import qiza.languages as languages

    monkeypatch.setattr(languages, "DICT_DIR", tmp_path)
    language: Language = LANGUAGES["italian-debian"]
    with pytest.raises(LexiconError, match="apt-get install witalian"):
        language.load()
    with pytest.raises(LexiconError, match="french-debian"):
        load_lexicon("klingon-debian")


@pytest.mark.parametrize("name,word,least", [
    ("french-debian", "ELEVE", 200_000), ("german-debian", "STRASSE", 200_000),
    ("spanish-debian", "CHICO", 50_000), ("catalan-debian", "COL·LEGI", 300_000),
    ("italian-debian", "CITTA", 80_000), ("dutch-debian", "CAFE", 200_000),
])
def test_installed_lists(name: str, word: str, least: int) -> None:
    lexicon = _lexicon_or_skip(name)
    assert word in lexicon  # type: ignore[operator]
    assert len(lexicon) >= least  # type: ignore[arg-type]
    tile_set = lexicon.tile_set  # type: ignore[attr-defined]
    assert all(2 <= len(tile_set.codes(w)) <= MAX_LENGTH for w in list(lexicon.words)[:5000])  # type: ignore[attr-defined]


def test_installed_polish_list(tmp_path: Path) -> None:
    """The Polish list has 4.3 million forms (40 s to read whole); its first 100,000 lines are checked."""
    language = LANGUAGES["polish-debian"]
    if not language.path.is_file():
        pytest.skip(f"{language.path} is absent: apt-get install {language.package} (CI installs it)")
    with language.path.open(encoding="utf-8") as handle:
        head = [next(handle) for _ in range(100_000)]
    lexicon = language.load(_write(tmp_path, head))
    assert len(lexicon) > 50_000 and any("Ż" in w for w in lexicon.words)
    assert set("".join(lexicon.words)) <= set(lexicon.tile_set.letters)


def test_a_language_list_is_read_once_and_its_words_kept_in_the_cache(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Debian's Polish list has 4 million words: filtering them and hashing their code strings
    took 20 s at every start. The playable words are kept in the cache folder, and the word
    graph is named by the list's bytes; a changed list, or a damaged cache file, is read anew."""
    import qiza.languages as languages
    from qiza.lexicon import Lexicon

    monkeypatch.setattr(languages, "DICT_DIR", tmp_path / "dict")
    monkeypatch.setenv("QIZA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("QIZA_NO_CACHE", raising=False)
    spanish: Language = LANGUAGES["spanish-debian"]
    (tmp_path / "dict").mkdir()
    lines = ["chico", "año", "canción", "Madrid", "perro", "llamar", "kilo"]
    spanish.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    uncached = spanish.load(spanish.path)  # a path given: never cached
    assert not (tmp_path / "cache").exists()

    first = spanish.load()
    assert first.words == uncached.words == {"CHICO", "AÑO", "CANCION", "PERRO", "LLAMAR"}
    assert str(first.report) == str(uncached.report)
    saved = list((tmp_path / "cache").glob("lexicon-spanish-debian-*.txt"))
    assert len(saved) == 1
    graph = first.gaddag

    def refused(*_: object) -> object:
        raise AssertionError("read again")

    with monkeypatch.context() as again:
        again.setattr(Language, "playable", refused)
        again.setattr(Lexicon, "code_words", refused)
        second = spanish.load()
        assert second.words == first.words and str(second.report) == str(first.report)
        assert (second.gaddag == graph).all()
        assert second.content_hash == first.content_hash

    text = saved[0].read_text(encoding="utf-8")
    for damaged in (text[:-3], text[:-1] + "X", text.replace("PERRO", "PERRA"), text.replace("\n", "\nX", 1)):
        saved[0].write_text(damaged, encoding="utf-8")  # a cut-off or changed file: read anew
        assert spanish.load().words == first.words

    spanish.path.write_text("\n".join([*lines, "gato"]) + "\n", encoding="utf-8")
    changed = spanish.load()
    assert changed.words == first.words | {"GATO"}
    assert changed.content_hash != first.content_hash
    assert "GATO" in {w for w in changed.anagrams("GOTA")} and changed.gaddag.shape != graph.shape


@pytest.mark.parametrize("name", ["spanish", "Catalan", "polish", "german", "italian", "dutch"])
def test_a_language_given_as_rule_preset_says_its_lexicon_brings_its_tiles(name: str) -> None:
    """'qiza play --rules spanish' (as --rules french plays the French tiles) said only "unknown rule
    preset 'spanish'", not that a language's words and tiles come with --lexicon spanish-debian."""
    from qiza.errors import QizaError
    from qiza.rules import find_preset

    with pytest.raises(QizaError, match=rf"unknown rule preset '{name}' .*the {name.lower()} tiles come with "
                                        rf"the lexicon {name.lower()}-debian \(--lexicon {name.lower()}-debian\)"):
        find_preset(name)
    with pytest.raises(QizaError, match=r"unknown rule preset 'bogus' \(known: [^)]*\)$"):
        find_preset("bogus")
