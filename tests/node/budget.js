// JavaScript port of tests/toy_budget.py: runs the README's node:test snippet (tests/test_readme_node.py).
export const BUG = false; // the pytest side flips it: ceil where the SPEC floors
function safe(i, g, q, [num, den]) {
  const room = BigInt(Math.max(0, i - (q ? g : 0)));
  return Number(BUG ? ((den - num) * room + den - 1n) / den : ((den - num) * room) / den); // floor for non-negative BigInt
}
function frac(text) {
  const [a, b = ""] = text.split(".");
  const den = 10n ** BigInt(b.length);
  return [BigInt(a || "0") * den + BigInt(b || "0"), den];
}
export function budgetPlan(sc) {
  const main = sc.main_model, cfg = sc.config, wl = sc.workload;
  const summ = sc.summary_model ?? main;
  const m = frac(cfg.safety_margin);
  const M = safe(main.input_tokens, cfg.reply_max_tokens, main.reserves_output, m);
  const S = Math.min(cfg.summary_max_tokens, summ.output_tokens);
  const C = safe(summ.input_tokens, S, summ.reserves_output, m);
  const prev = wl.previous_summary_tokens, instr = wl.summary_instruction_tokens;
  const budget = Math.max(0, Math.min(64000, C - prev - instr));
  const recompress = prev > S;
  const backlog = wl.backlog_tokens ?? budget;
  const newRaw = recompress ? 0 : Math.min(budget, backlog);
  const F = wl.required_tokens, A = wl.summary_tokens, Ae = wl.engine_summary_tokens ?? A;
  const limit = Math.max(0, M - A);
  const prefetched = Math.min(limit, wl.history_tokens);
  const adopted = F + Ae <= M ? Ae : 0;
  const headroom = Math.max(0, M - F - adopted);
  const raw = Math.min(prefetched, headroom);
  const full = F + adopted + raw;
  const soft = wl.usage_baseline_tokens === null ? full : wl.usage_baseline_tokens + wl.replay_since_baseline_tokens;
  return { main_safe_input: M, summary_cap: S, summary_generation: S, summary_safe_input: C,
    summary_new_raw_budget: budget, summary_new_raw: newRaw, summary_work_input: instr + prev + newRaw,
    summary_work_total: instr + prev + newRaw + S, recompress_needed: recompress, loader_prefetch_limit: limit,
    prefetched, summary_adopted: adopted, engine_raw_headroom: headroom, raw_selected: raw, full_input: full,
    admitted: F <= M, soft_estimate: soft, trigger_reached: soft >= cfg.trigger_tokens };
}
