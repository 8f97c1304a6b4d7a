"""Small word lists of several languages for tests of the move generator and the computer players.

Made up for the tests (mostly real words; a few short ones only so that boards fill up):
French (A-Z), Polish (with Ź and Ż, codes 31 and 32), Spanish (with CH, LL, RR, Ñ) and English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

FRENCH_WORDS = """AS ES ET EU IL JE LA LE LU MA ME MI MU NE NI NU OR OU SA SE SI SU TA TE TU UN VA VU
ZEN RUE MER MOT MUR NEZ OUI ROI SEL SUR TES VIE ZOO AIME AMIE AUTO DENT FEUX GARE JOUR KIWI LUNE
MAIS NUIT OUEST PAIX QUOI RIRE TEMPS VENT XENON YEUX ZERO ECOLE MAISON ETOILE MAITRE RUES MOTS
MURS ROIS VIES AMIES TEMPETE ETES TETE TOTEM SOURIS ENTRE RESTE TRES ELU ELUS EMU""".split()

POLISH_WORDS = """ŻABA ŹLE ŻE ŁÓDŹ ŚWIAT KOŃ GĘŚ MĄŻ ŹRÓDŁO ŻÓŁW JAŹŃ ĆMA DĄB NOC KOT PIES DOM LAS
ŁĄKA ZĄB RĘKA MAK TAK NIE OKO UCHO ŻYĆ MÓC PIĆ BYĆ IŚĆ WĄŻ JEŻ NÓŻ AŻ ŻAL ŻAR ŹDŹBŁO OŚ OŚĆ ĆWIK
TO TA TE NA ZA OD DO KO MA MI MU JA JE ŁA ŁE ŻUK ŻUKI KOŁO ŁOŚ ŚLAD ŁZA ŁZY ŻAB ŻABY OKA OKI TAM TEN
KIT MAT ŻAK ŻAKI ŚWIT ÓW ŹDŹ ŻEŃ ŹLI ŻMIJA ŻĄDZA ŹREBIĘ ĄŻ EŹ IŻ OŹ AŹ ŹA ŻO""".split()

SPANISH_WORDS = """CHICO CHICOS CALLE CALLES PERRO PERROS AÑO AÑOS NIÑO NIÑOS LLAVE CHAL OCHO CARRO
LLANO ORO RIO SOL MAR PAN SAL YA SI NO LA EL DE EN UN TE ME LO SE ES AL CHE OSO OLA OLLA ARRE
HORRO COCHE NOCHE LECHE LLENO SOLO PERO CARO CASA COSA ESO ESA ESTE CHINO CHINA RANA RAÑA""".split()

ENGLISH_WORDS = """AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DE DO ED EF EH EL EM EN
ER ES ET EX FA GO HA HE HI HM HO ID IF IN IS IT JO KA LA LI LO MA ME MI MO MU MY NA NE NO NU OD OE OF
OH OI OM ON OP OR OS OW OX OY PA PE PI RE SH SI SO TA TI TO UH UM UN UP US UT WE WO XI XU YA YE YO ZA
CAT CATS DOG DOGS QUIZ QUIZZES ZAX JINX OXEN RATE RATES STARE TEARS ASTER RETAINS STAINER""".split()


def use_word_lists(folder: Path, lists: Mapping[str, Sequence[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``folder`` the Debian word-list folder, holding these lists (tile set name -> words),
    with no language lexicon loaded before: ``load_lexicon("french-debian")`` reads the small list."""
    from qiza import languages
    from qiza import lexicon as lexicon_module

    for name, words in lists.items():
        file = languages.LANGUAGES[f"{name}-debian"].dict_file
        (folder / file).write_text("\n".join(w.lower() for w in words) + "\n", encoding="utf-8")
    monkeypatch.setattr(languages, "DICT_DIR", folder)
    monkeypatch.setattr(lexicon_module, "_loaded", {})
