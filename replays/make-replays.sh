#!/usr/bin/env bash
# Writes every example log in replays/ from the command that makes it.
# The seeds were picked for games that show the rules at work: a tied
# opening, a missed turn, an ignored ace, a failed try. The tests run these
# same commands and check that each log comes out byte for byte the same.
#
#   usage: replays/make-replays.sh [ACES]   (ACES defaults to "aces")
set -euo pipefail
aces=${1:-aces}
# Find the command before leaving the caller's directory: PATH may name it
# relatively (PATH=.venv/bin:$PATH), which means nothing inside replays/.
read -r command options <<<"$aces"
if ! found=$(command -v "$command"); then
    echo "make-replays.sh: $command: command not found" >&2
    exit 127
fi
case $found in
    /*) ;;
    */*) found=$PWD/$found ;;
esac
aces="$found${options:+ $options}"
cd "$(dirname "$0")"
rm -f ./*.jsonl

# Aces in the Pot
$aces play --players Ada,Bo,Cy --seed 1647 -o three-players.jsonl
$aces play --players Ada,Bo,Cy,Dag --seed 686 -o four-players.jsonl
$aces play --players 5 --finish last-holder --seed 489 -o five-players-last-holder.jsonl
$aces play --players Kari,Ola,Per,Siri --games 5 --seed 7 -o session.jsonl
# The rulings' worked examples, typed in as a family would at the table.
$aces play --players Ada,Bo,Cy --dice-file e1.dice -o e1-last-chip.jsonl
$aces play --players Ada,Bo,Cy --finish last-holder --dice-file e2.dice -o e2-last-holder.jsonl

# Aces, the five-dice game. The seeds give a tied opening, a roll again, a
# missed turn, and dice passed both ways.
$aces play --game five-dice --players Ada,Bo,Cy,Dag --seed 1165 -o five-dice-four-players.jsonl
$aces play --game five-dice --players Ada,Bo,Cy --dice-each 1 --seed 296 -o five-dice-one-die.jsonl
# Worked example E3, and the threes variation with the receivers typed in.
$aces play --game five-dice --players Ada,Bo,Cy --dice-each 1 --dice-file e3.dice -o e3-one-die.jsonl
$aces play --game five-dice --players Ada,Bo,Cy --dice-each 2 --threes --dice-file threes.dice -o five-dice-threes.jsonl
