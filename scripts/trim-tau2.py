"""Trims τ²-bench files to what `gcpc import tau2` reads, for vendoring without agent logs.

Usage: python3 scripts/trim-tau2.py IN_DIR OUT_DIR
Every *.json.gz under IN_DIR is written to OUT_DIR under the same name, gzip-compressed, keeping:
- results files (`simulations[]`): `info.agent_info` (implementation, llm), `info.environment_info.domain_name`,
  per task definition its `id`, `evaluation_criteria.reward_basis` and `user_scenario.instructions.domain`
  (the outcome basis and the domain the importer reads from them), and per simulation `id`, `task_id`,
  `trial`, `termination_reason` and `reward_info` unchanged; the conversations (`messages`), the rest of the
  task definitions (gold actions, assertions, instructions) and the policies are dropped;
- judge-viewer summaries (`entries[]`): per entry `simulation_id`, `task_id`, `label`, `tau2_reward`,
  `judge_verdict` and `judge_prompt_name` unchanged; the prompts (which quote the conversation) and the
  judges' free text are dropped.
Other files (e.g. datasets.json.gz) are copied unchanged. Values are copied, never edited.
"""
import gzip
import json
import sys
from pathlib import Path

SIM_KEYS = ["id", "task_id", "trial", "termination_reason", "reward_info"]
ENTRY_KEYS = ["simulation_id", "task_id", "label", "tau2_reward", "judge_verdict", "judge_prompt_name"]


def task(t):
    """A task definition's id, outcome basis and domain, as they are."""
    out = {"id": t.get("id")}
    criteria = t.get("evaluation_criteria")
    if isinstance(criteria, dict) and "reward_basis" in criteria:
        out["evaluation_criteria"] = {"reward_basis": criteria["reward_basis"]}
    scenario = t.get("user_scenario")
    instructions = scenario.get("instructions") if isinstance(scenario, dict) else None
    if isinstance(instructions, dict) and "domain" in instructions:
        out["user_scenario"] = {"instructions": {"domain": instructions["domain"]}}
    return out


def trim(doc):
    if isinstance(doc, dict) and isinstance(doc.get("simulations"), list):
        info = doc.get("info") or {}
        agent = info.get("agent_info") or {}
        env = info.get("environment_info") or {}
        return {
            "info": {
                "agent_info": {k: agent[k] for k in ("implementation", "llm") if k in agent},
                "environment_info": {"domain_name": env.get("domain_name")},
            },
            **({"tasks": [task(t) for t in doc["tasks"] if isinstance(t, dict)]} if isinstance(doc.get("tasks"), list) else {}),
            "simulations": [{k: s[k] for k in SIM_KEYS if k in s} for s in doc["simulations"]],
        }
    if isinstance(doc, dict) and isinstance(doc.get("entries"), list):
        return {"entries": [{k: e[k] for k in ENTRY_KEYS if k in e} for e in doc["entries"]]}
    return doc


def main(src, dst):
    src, dst = Path(src), Path(dst)
    for f in sorted(src.rglob("*.json.gz")):
        out = dst / f.relative_to(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        doc = json.load(gzip.open(f))
        data = json.dumps(trim(doc), ensure_ascii=False, separators=(",", ":")).encode()
        with gzip.GzipFile(out, "wb", mtime=0) as g:
            g.write(data)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
