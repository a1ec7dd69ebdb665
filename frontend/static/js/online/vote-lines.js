// The table votes' words in the page's language (issue 40, docs/online-votes.md): what a vote
// proposes, and a vote's chat line from its `system` data (app/westeros/online/vote_lines.py).
// The chat stores these lines in English; this is how each page shows them in its own.
import { houseName } from "../content.js";
import { listed, t, tn } from "../i18n.js";

/** What a vote (`vote` its kind, with `house`, `by`, `minutes`) proposes. */
export function proposalText({ vote, house, by, minutes }) {
  if (vote === "extend") {
    if (minutes % 60 === 0)
      return tn("extend the clocks by {n} hour", "extend the clocks by {n} hours", minutes / 60);
    return t("extend the clocks by {minutes} min", { minutes });
  }
  if (vote === "replace")
    return by === "person"
      ? t("replace {house} by a new person", { house: houseName(house) })
      : t("replace {house} by the AI", { house: houseName(house) });
  return {
    pause: t("pause the game"),
    resume: t("resume the game"),
    end: t("end the game now"),
    cancel: t("cancel the game"),
  }[vote];
}

/** The standings of an ended game: "1. Stark, 2. …". */
export function standingsText(standings) {
  return listed(standings.map((house, i) => `${i + 1}. ${houseName(house)}`));
}

/** The result of a closed vote (`passed`, or `failed` for `reason`), with the standings. */
export function resultText(line, reason, proposal, standings) {
  const what = proposalText(proposal);
  if (line === "passed") {
    const text = t("Vote passed: {what}.", { what });
    return standings?.length ? `${text} ${t("Standings: {order}.", { order: standingsText(standings) })}` : text;
  }
  return reason === "timeout"
    ? t("Vote failed (time is up): {what}.", { what })
    : t("Vote failed (no majority): {what}.", { what });
}

/** A vote's chat line, from its `system` data, in the page's language. */
export function voteLineText(system) {
  if (system.line === "call")
    return t("Vote: {house} calls a vote to {what}.", { house: houseName(system.caller), what: proposalText(system) });
  if (system.line === "ballot") {
    const house = houseName(system.voter);
    if (!system.yes) return t("Vote: {house} votes no.", { house });
    if (system.needed == null) return t("Vote: {house} votes yes.", { house });
    return t("Vote: {house} votes yes ({needed} of {voters} yes needed).", { house, needed: system.needed, voters: system.voters });
  }
  return resultText(system.line, system.reason, system, system.standings);
}
