#!/bin/sh
# Rebuilds the two graded/hierarchical real stores from their vendored raw files (data/real/raw/devai,
# data/real/raw/llm-rubric). Run from the repo root; the stores are replaced. The weights of DevAI are ours
# (scripts/devai-weights.ts says the rule); LLM-Rubric comes in through the generic table importer, the LLM's
# answers first (primary judge), the human's into the same store (reference judge).
set -e
rm -rf data/real/devai data/real/llm-rubric
node --import tsx scripts/devai-weights.ts data/real/raw/devai > data/real/raw/devai/weights.csv
node bin/gcpc.js import devai data/real/raw/devai --weights data/real/raw/devai/weights.csv --out data/real/devai
R=data/real/raw/llm-rubric
node bin/gcpc.js import table "$R/gpt-3.5-turbo-16k_real_evaluations_FIXED.tsv" --out data/real/llm-rubric \
  --task text_id --trajectory text_id --item criterion --label sample_llm --skip-items Q0 --scale 1:4 \
  --judge gpt-3.5-turbo-16k --reference-judge human --model dialogue_system \
  --outcomes "$R/human_judges_real_convs_FIXED_ANON.tsv" --outcome Q0 --threshold 3 \
  --benchmark llm-rubric --name "LLM-Rubric: rubric answers of humans and gpt-3.5-turbo-16k on 223 real dialogues"
node bin/gcpc.js import table "$R/human_judges_real_convs_FIXED_ANON.tsv" --into data/real/llm-rubric \
  --task text_id --trajectory text_id --items Q1,Q2,Q3,Q4,Q5,Q6,Q7,Q8 --not-applicable 0 --scale 1:4 \
  --judge human --model dialogue_system --outcome Q0 --threshold 3 --benchmark llm-rubric
