"""Write ``cards.csv`` for the Blank Stares test deck: 1,538 text cards, prompts and answers.

A party game of this kind keeps its cards in a spreadsheet, one card a row, and its text is
typed as people type: stars for footnotes and ratings (``Pay 2*``, ``The Thing.*``, ``5*``),
now and then a real emphasis (``*very*``). The words are combined from the short lists
below, so the file is the same on every run: ``python tests/decks/party/make_cards.py``.
"""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

PROMPT_OPENINGS = [
    "The secret ingredient in tonight's soup is ____",
    "My therapist says I should stop talking about ____",
    "Nobody warned me the wedding would have ____",
    "The museum's newest exhibit: ____",
    "What ended the town council meeting early? ____",
    "Grandpa's last words were about ____",
    "The school play was cancelled because of ____",
    "I packed three things for the desert island, one of them ____",
    "Scientists finally explained ____",
    "The hotel brochure promised ____",
    "Tonight on the nature channel: ____",
    "The dragon demanded ____",
    "My superpower is ____",
    "The lost and found is full of ____",
    "What did the robot learn to love? ____",
    "The cruise ship's talent show featured ____",
    "In the sequel, the hero faces ____",
    "The office party ran out of ____",
    "Our band is named after ____",
    "The fortune cookie said only ____",
    "The wizard's spellbook is mostly ____",
    "Day three of the camping trip: ____",
    "The pirate's treasure turned out to be ____",
    "What is hiding under the bed? ____",
    "The new theme park ride is called ____",
    "Our family reunion was ruined by ____",
    "The king outlawed ____",
    "I would trade my car for ____",
    "The astronaut smuggled ____",
    "This year's hottest gift: ____",
]
PROMPT_ENDINGS = [".", "!", "?", ". Again.", ", obviously.", "*", ". Pay 2*", " (terms apply).*",
                  ", with a 5* review.", ". *Allegedly.", ", and it was *very* loud.", ". Worth 2 * 3 points."]
ANSWER_ADJECTIVES = [
    "A suspiciously calm", "An enormous", "A tiny", "A haunted", "A second-hand", "A very polite",
    "An inflatable", "A damp", "A heroic", "A lukewarm", "A glittering", "A forgotten",
    "A philosophical", "A rented", "A ticklish", "A slightly burnt", "An award-winning",
    "A nervous", "A gold-plated", "An unlicensed", "A medieval", "A moody", "A brand-new",
    "A sticky", "An invisible", "A retired", "A singing", "A lopsided",
]
ANSWER_NOUNS = [
    "goose", "accordion", "lighthouse", "spoon", "cactus", "submarine", "wizard", "pie",
    "trombone", "llama", "umbrella", "sandcastle", "sock puppet", "volcano", "toaster",
    "tugboat", "walrus", "chandelier", "paperclip", "snowman", "bagpipe", "grandfather clock",
    "hamster", "ferris wheel", "teapot", "pirate", "meatball", "scarecrow", "jellyfish", "banjo",
    "canoe", "moustache", "carousel", "pretzel", "kazoo", "parrot", "igloo", "lawnmower",
    "dinosaur", "waffle", "robot", "mermaid",
]
ANSWER_TAILS = ["", ".*", " (pay 2*)", " with a *tiny* crown", ", rated 5*", "", "", ""]


def prompts() -> list[str]:
    return [opening.replace("____", "____" + ending) if ending else opening
            for opening, ending in itertools.product(PROMPT_OPENINGS, PROMPT_ENDINGS)]


def answers() -> list[str]:
    pairs = itertools.product(ANSWER_ADJECTIVES, ANSWER_NOUNS)
    return [f"{adjective} {noun}{ANSWER_TAILS[index % len(ANSWER_TAILS)]}" + ("" if "." in
            ANSWER_TAILS[index % len(ANSWER_TAILS)] else ".")
            for index, (adjective, noun) in enumerate(pairs)]


def rows() -> list[dict[str, str]]:
    """Every card: its id, its kind, its text and the kind its back shows (a back a kind)."""
    cards = [("prompt", f"p{number:04d}", text) for number, text in enumerate(prompts(), 1)]
    cards += [("answer", f"a{number:04d}", text) for number, text in enumerate(answers(), 1)]
    cards += [("answer", "thing", "The Thing.*"), ("answer", "toll", "Pay 2*")]
    return [{"id": card_id, "kind": kind, "text": text, "back.kind": kind} for kind, card_id, text in cards]


def main() -> None:
    path = Path(__file__).with_name("cards.csv")
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=["id", "kind", "text", "back.kind"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows())


if __name__ == "__main__":
    main()
