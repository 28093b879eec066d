#!/bin/sh
# Makes the CMYK ICC profiles the print-shop presets convert colours with.
#
# Source data: the FOGRA39 and CGATS TR 003 characterization data that Debian's
# icc-profiles-free package ships under the zlib licence (see LICENSE beside this
# script). The profiles are made from it by ArgyllCMS's colprof:
#
#     apt-get install argyll icc-profiles-free
#     sh generator/shops/profiles/make-profiles.sh
#
# Each profile has a total ink limit built into its tables (-l), so every colour
# and image converted through it stays within the shop's limit, and its
# perceptual table is mapped from sRGB's gamut (-S), the colour space layouts and
# card art are written in. Deckpress converts with the relative colorimetric
# intent and black-point compensation (generator/shops/inks.py).
#
# colprof writes the date into the profile's header, so remaking a profile
# changes its bytes (and those of every CMYK PDF built with it) but not its colours.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
data=/usr/share/color/icc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# profile NAME DATA INK_LIMIT DESCRIPTION SOURCE
profile() {
    cp "$data/$2.ti3" "$work/$1.ti3"
    (cd "$work" && colprof -qm -nc -l "$3" -L 100 -S "$data/sRGB.icc" -cmt -dpp \
        -D "$4" -C "Made with ArgyllCMS colprof from $5 characterization data (icc-profiles-free, zlib licence)" \
        "$1")
    cp "$work/$1.icc" "$here/$1.icc"
    echo "wrote $here/$1.icc"
}

profile cgats-tr003-240 TR003 240 "CGATS TR 003 (SWOP on grade 3 coated paper), 240% total ink" \
    "ANSI CGATS/SWOP TR 003-2007"
profile fogra39-300 FOGRA39L 300 "FOGRA39 (ISO 12647-2 offset, coated paper), 300% total ink" "Fogra FOGRA39L"
