// The unsubscribe link of a notice e-mail (issue 40): stop the e-mails at once, no login
// needed (the link's token is the credential), and say so.
import { loadCatalog, t } from "../i18n.js";

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  const status = document.getElementById("unsubscribe-status");
  const token = new URLSearchParams(location.search).get("token") || "";
  const response = await fetch(`/api/notices/unsubscribe?token=${encodeURIComponent(token)}`, {
    method: "POST",
    credentials: "omit",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  }).catch(() => null);
  const data = response ? await response.json().catch(() => ({})) : {};
  status.textContent =
    response && response.ok
      ? t("No more turn notices will be sent to {address}.", { address: data.address })
      : t("This unsubscribe link is not valid (any more). Your notice settings can still turn e-mail off.");
  status.dataset.done = response && response.ok ? "yes" : "no";
}

main();
