// A refusal from the core or the online server in the player's language. Every reply carries a
// stable `code` (docs/protocol.md); the engine's `message` is English and names the detail, so
// English players read it as sent and every other language reads the code's plain sentence.
import { t } from "./i18n.js";

const WORDS = {
  "illegal/not-pending": () => t("You are not asked to decide anything right now."),
  "illegal/already-revealed": () =>
    t("Too late to change it: everyone's choices have been revealed."),
  "illegal/wrong-action-kind": () => t("That does not answer the question you are asked."),
  "illegal/order": () => t("These orders cannot be placed like that."),
  "illegal/forbidden-order": () => t("That order cannot be placed this round."),
  "illegal/star-limit-exceeded": () =>
    t("Too many special orders: your place on the King's Court track allows fewer."),
  "illegal/target": () => t("That target is not allowed."),
  "illegal/move": () => t("Those units cannot go there."),
  "illegal/supply-exceeded": () => t("Your supply does not allow armies that large."),
  "illegal/unit-unavailable": () => t("None of those units are left to place."),
  "illegal/not-enough-power": () => t("You do not have enough Power tokens."),
  "illegal/choice": () => t("That is not one of the choices offered."),
  "illegal/malformed-action": () => t("The board sent an answer the game could not read."),
  "illegal/not-your-order": () => t("There is no order of yours of that kind in that area."),
  "illegal/cannot-muster": () => t("Units cannot be recruited there."),
  "illegal/units-cannot-move": () =>
    t("Those units cannot march: they are routed, elsewhere, or have already moved."),
  "illegal/too-many-combats": () => t("One march can start at most one combat."),
  "illegal/neutral-force-too-strong": () =>
    t("Your army is not strong enough to attack that neutral force."),
  "illegal/power-token-not-allowed": () => t("A Power token cannot be left in that area."),
  "illegal/area-left-empty": () => t("That would leave the area without the units it needs."),
  "illegal/token-reused": () => t("That order token is already used."),
  "illegal/port-takeover": () => t("Those ships cannot be taken over."),
  "illegal/action": () => t("The rules do not allow that."),
  "malformed/message": () => t("The board sent a message the game could not read."),
  "seat/refused": () => t("You cannot act for that house."),
  "seat/computer": () => t("That house is played by the computer."),
  "seat/credentials": () => t("Your seat key does not match this seat."),
  "game/not-found": () => t("No such game."),
  "game/unavailable": () => t("This game cannot be opened right now."),
  "hint/unavailable": () => t("No hint for this choice."),
  "online/cross-origin": () => t("Refused: this request came from another site."),
  "stale-state": () => t("The board had changed in the meantime; look again and choose."),
  "not-saved": () => t("Your choice could not be saved, so it did not happen. Try again."),
  session: () => t("The game refused this message."),
  internal: () => t("Something went wrong on our side; the game is unchanged."),
  "online/unknown-player": () => t("This browser is not known to the server: enter your name."),
  "online/bad-invite": () => t("This invitation is not valid (any more)."),
  "online/not-host": () => t("Only the host can do that."),
  "online/not-your-seat": () => t("That seat is not yours."),
  "online/not-found": () => t("No such game or house."),
  "online/lobby-state": () => t("Not possible in this game right now."),
  "online/bad-name": () =>
    t("That name cannot be used: it is empty, too long or holds control characters."),
  "online/refused": () => t("The server refused this."),
  "online/spectator-cannot-act": () => t("Spectators watch; they cannot act."),
  "online/cannot-host": () => t("The online game cannot be hosted with these settings."),
  "online/too-many": () => t("You already hold as many lobbies or games as one player may."),
  "online/bad-setting": () => t("A setting of this game is not valid: check the form and try again."),
  "online/invite-only": () => t("Seats of this game are taken with an invitation link only."),
  "online/rate-limited": () => t("Too many messages at once: wait a moment and send it again."),
  "online/too-many-requests": () => t("Too many requests from your address: wait a moment and try again."),
  "online/replay-busy": () => t("Your other replays are still being prepared: try again in a moment."),
  "online/too-large": () => t("This request is too large."),
  "online/too-many-sockets": () => t("Too many open connections from here: close some tabs of this game."),
  "online/unavailable": () => t("The server cannot reach its database right now: try again in a moment."),
  "online/wrong-host": () => t("This address is not the one the game is served at: use the invitation link."),
  "plugin-fault": () => t("The game is paused: a plugin failed. See the banner at the top of the board."),
  "chat/invalid": () => t("That message cannot be sent."),
  "chat/rate-limited": () => t("You are sending messages too fast; wait a moment."),
  "chat/muted": () => t("You are muted on this server: you may play but not chat."),
  "chat/banned": () => t("You are banned from this server."),
  "chat/moderation-refused": () => t("That line cannot be blocked or reported."),
  "online/banned": () => t("You are banned from this server."),
  "online/below-reliability": () =>
    t("This table asks for a higher reliability than yours: finish the online games you join to raise it."),
  "online/notice-refused": () => t("That address, link or subscription cannot be used for notices."),
  "online/no-email": () => t("This server does not send e-mail."),
  "online/bad-token": () => t("This link is not valid (any more)."),
  "online/too-soon": () => t("A link was sent a moment ago: wait a minute."),
  "online/bad-after": () => t("The app asked for turn notices in a way this server does not understand."),
  "online/not-sent": () => t("The e-mail could not be sent: try again later."),
  "online/vote-refused": () => t("This vote cannot be called now."),
  "online/vote-open": () => t("Another vote of this table is open: one at a time."),
  "online/vote-closed": () => t("This vote is closed."),
  "online/not-a-voter": () => t("Only the people seated when the vote was called vote on it."),
  "online/own-replacement": () => t("Nobody votes on their own replacement."),
  "online/already-voted": () => t("Your ballot is cast: it cannot be changed."),
  "online/paused-by-vote": () => t("The table voted to pause this game: no action until it votes to resume."),
  "deal/refused": () => t("The table refused this offer or answer."),
  "deal/too-many-offers": () => t("You have made as many offers as one round allows: offer again next round."),
};

// Codes of a family without words of their own ("malformed/json", "seat/unknown", ...).
const FAMILIES = {
  illegal: "illegal/action",
  malformed: "malformed/message",
  seat: "seat/refused",
  online: "online/refused",
  chat: "chat/invalid",
  game: "game/unavailable",
  deal: "deal/refused",
};

function wordsFor(code) {
  const key = String(code || "");
  return WORDS[key] || WORDS[FAMILIES[key.split("/")[0]]] || null;
}

/** The refusal `reply` ({code, message, rule}) as the player should read it. */
export function errorText(reply) {
  const lang = document.documentElement.lang || "en";
  const words = wordsFor(reply && reply.code);
  const text = lang === "en" || !words ? String((reply && reply.message) || "") : words();
  const shown = text || t("The server refused this.");
  return reply && reply.rule ? t("{message} (rule {rule})", { message: shown, rule: reply.rule }) : shown;
}
