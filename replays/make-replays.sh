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

# A class experiment: six groups of four play twenty games each, and the lesson
# "The class experiment" pools them with aces stats while the docs are built.
$aces play --players Emma,Noah,Nora,Jakob --games 20 --seed 1000 -o class-group-1.jsonl
$aces play --players Sofie,Filip,Ella,Lukas --games 20 --seed 2000 -o class-group-2.jsonl
$aces play --players Olivia,Oskar,Ingrid,Aksel --games 20 --seed 3000 -o class-group-3.jsonl
$aces play --players Maja,Emil,Leah,Henrik --games 20 --seed 4000 -o class-group-4.jsonl
$aces play --players Frida,Isak,Sara,Mathias --games 20 --seed 5000 -o class-group-5.jsonl
$aces play --players Astrid,Jonas,Selma,Magnus --games 20 --seed 6000 -o class-group-6.jsonl
