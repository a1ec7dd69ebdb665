// Table voice (issue 39; docs/protocol.md "Table voice"): peer-to-peer WebRTC audio between the
// people of an online game, its signalling carried by the seat's board socket (board.js relays
// it: online/board.js) or, for a spectator on the lobby page, the game's watch socket.
// Nothing is recorded or stored: the microphone goes only into the peer connections, and the
// audio received only into an <audio> element per person.
//
// Who hears whom comes from the server's `state` message: a member keeps a peer connection
// exactly with the members it may hear now (both at the table, or the two of one aside); the
// member whose peer id sorts lower makes the offer. Sending is switched by replacing the track
// of every sender (none while muted, while push-to-talk is not held, or while the host mutes
// this house at the table), so a muted person sends no audio at all.
//
// For tests and the benchmark, `window.westerosVoice.stats()` (read-only) resolves to one entry
// per peer connection: {peer, house, state, inbound: {bytesReceived, packetsReceived, audioLevel,
// totalAudioEnergy}, outbound: {bytesSent, packetsSent}}.
import { houseName } from "../content.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";

const STORE = "westeros.voice.";
const DEFAULT_KEY = { code: "KeyV", label: "V" };
const SPEAKING_LEVEL = 0.02;
const POLL_MS = 400;

/** The stored setting `name` (JSON), or `fallback`. */
function stored(name, fallback) {
  try {
    return JSON.parse(localStorage.getItem(STORE + name)) ?? fallback;
  } catch {
    return fallback;
  }
}

function store(name, value) {
  localStorage.setItem(STORE + name, JSON.stringify(value));
}

/** Whether a key pressed in `target` is typing (push-to-talk ignores it). */
function typing(target) {
  if (!(target instanceof Element)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** What to tell a person whose browser or window did not open the microphone. */
function microphoneRefused(error) {
  if (!navigator.mediaDevices?.getUserMedia)
    return t(
      "This page cannot use a microphone: browsers allow it only on https:// addresses or on this computer. Ask the host for an https:// address.",
    );
  // Qt WebEngine (the desktop window) ends a refused request with AbortError
  if (["NotAllowedError", "SecurityError", "AbortError"].includes(error?.name))
    return t(
      "The microphone was refused. In a browser, allow it for this page (the icon at the left of the address bar), then press Join table voice again. The game's own window gives it only to the server it was opened for.",
    );
  if (error?.name === "NotFoundError" || error?.name === "OverconstrainedError")
    return t("No microphone was found. Connect one, then press Join table voice again.");
  if (error?.name === "NotReadableError")
    return t(
      "The microphone is busy or failed to start. Close other programs that use it, then press Join table voice again.",
    );
  return t("The microphone could not be opened: {error}", { error: error?.message || error });
}

/** One peer connection, with the element that plays what it receives. */
class Peer {
  constructor(id, house, iceServers) {
    this.id = id;
    this.house = house;
    this.pc = new RTCPeerConnection({ iceServers });
    this.audio = new Audio();
    this.audio.autoplay = true;
    this.pending = [];
    this.queue = Promise.resolve();
  }

  /** Run `step` after every earlier signal of this peer (descriptions are asynchronous). */
  then(step) {
    this.queue = this.queue.then(step).catch((error) => console.warn("voice:", error));
    return this.queue;
  }

  close() {
    this.pc.close();
    this.audio.srcObject = null;
  }
}

export class Voice {
  /** `socket`: the socket voice messages go out on ({send}); `myHouse`: the seat of this
   * page, or null (a spectator, who only listens). */
  constructor(socket, myHouse) {
    this.socket = socket;
    this.myHouse = myHouse || null;
    this.seats = [];
    this.host = false;
    this.state = { members: {}, asides: [], host_muted: [], you: null };
    this.iceServers = [];
    this.peers = new Map();
    this.joined = false;
    this.joining = false;
    this.stream = null;
    this.selfMuted = false;
    this.held = false;
    this.mode = stored("mode", "open");
    this.key = stored("key", DEFAULT_KEY);
    this.muted = stored("muted", {});
    this.volumes = stored("volumes", {});
    this.requests = [];
    this.meter = null;
    this.el = (id) => document.getElementById(id);
    this.wire();
    this.followConnection();
    this.render();
    setInterval(() => this.poll(), POLL_MS);
    window.westerosVoice = { stats: () => this.stats() };
  }

  // ------------------------------------------------------------------ controls
  wire() {
    const joinButton = this.el("voice-join");
    joinButton?.addEventListener("click", () => this.join());
    if (joinButton) joinButton.disabled = false;
    this.el("voice-leave")?.addEventListener("click", () => this.leave());
    this.el("voice-mute")?.addEventListener("click", () => {
      this.selfMuted = !this.selfMuted;
      this.updateSending();
      this.render();
    });
    this.el("voice-return")?.addEventListener("click", () => this.send({ op: "return" }));
    for (const radio of document.querySelectorAll("input[name=voice-mode]")) {
      radio.checked = radio.value === this.mode;
      radio.addEventListener("change", () => {
        this.mode = radio.value;
        store("mode", this.mode);
        this.updateSending();
        this.render();
      });
    }
    const keyInput = this.el("voice-key");
    if (keyInput) {
      keyInput.value = this.key.label;
      keyInput.addEventListener("keydown", (event) => {
        const key = event.key;
        if (key === "Tab" || key === "Escape" || key === "Shift" || key === "Enter") return;
        event.preventDefault();
        event.stopPropagation();
        const label = event.key.length === 1 ? event.key.toUpperCase() : event.key;
        this.key = { code: event.code, label };
        keyInput.value = this.key.label;
        store("key", this.key);
        this.render();
      });
    }
    document.addEventListener("keydown", (event) => this.pushToTalk(event, true));
    document.addEventListener("keyup", (event) => this.pushToTalk(event, false));
    window.addEventListener("blur", () => this.pushToTalk(null, false));
    this.el("voice-mic")?.addEventListener("change", (event) =>
      this.chooseMicrophone(event.target.value),
    );
    this.el("voice-speaker")?.addEventListener("change", (event) => {
      store("speaker", event.target.value);
      for (const peer of this.peers.values()) this.routeOutput(peer);
    });
    navigator.mediaDevices?.addEventListener?.("devicechange", () => this.listDevices());
    window.addEventListener("pagehide", () => this.joined && this.send({ op: "leave" }));
  }

  /** The seat's socket opened again (board.js marks `#connection`'s data-status): the server
   * dropped this page from table voice with the old socket, so join again. */
  followConnection() {
    const node = document.getElementById("connection");
    if (!node) return;
    let last = node.dataset.status;
    new MutationObserver(() => {
      const now = node.dataset.status;
      if (now === "open" && last && last !== "open" && this.joined) {
        for (const id of [...this.peers.keys()]) this.closePeer(id);
        this.joining = true;
        this.send({ op: "join" });
      }
      last = now;
    }).observe(node, { attributes: true, attributeFilter: ["data-status"] });
  }

  pushToTalk(event, down) {
    // a key pressed while typing in a field is text; its release always ends talking
    if (event && (event.code !== this.key.code || (down && (typing(event.target) || event.repeat))))
      return;
    if (this.held === down) return;
    this.held = down;
    if (this.mode === "ptt") {
      this.updateSending();
      this.render();
    }
  }

  send(message) {
    this.socket.send({ type: "voice", ...message });
  }

  /** Join table voice: a seat opens its microphone first (a spectator only listens). */
  async join() {
    this.showError(null);
    if (this.myHouse && !this.stream) {
      if (!navigator.mediaDevices?.getUserMedia) {
        this.showError(microphoneRefused(null));
        return;
      }
      try {
        const device = stored("microphone", "");
        this.stream = await navigator.mediaDevices.getUserMedia({
          audio: device ? { deviceId: { exact: device } } : true,
          video: false,
        });
      } catch (error) {
        if (error?.name === "OverconstrainedError") {
          store("microphone", "");
          return this.join();
        }
        this.showError(microphoneRefused(error));
        return;
      }
      this.startMeter();
      this.listDevices();
    }
    this.joined = true;
    this.joining = true;
    this.send({ op: "join" });
    this.render();
  }

  leave() {
    this.send({ op: "leave" });
    this.stop();
  }

  /** Close every peer connection and the microphone; not in table voice any more. */
  stop() {
    this.joined = false;
    this.joining = false;
    for (const id of [...this.peers.keys()]) this.closePeer(id);
    for (const track of this.stream?.getTracks() || []) track.stop();
    this.stream = null;
    this.meter?.context.close();
    this.meter = null;
    this.requests = [];
    this.render();
  }

  async chooseMicrophone(deviceId) {
    store("microphone", deviceId);
    if (!this.stream) return;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: deviceId ? { deviceId: { exact: deviceId } } : true,
      });
      for (const track of this.stream.getTracks()) track.stop();
      this.stream = stream;
      this.meter?.context.close();
      this.startMeter();
      this.updateSending();
    } catch (error) {
      this.showError(microphoneRefused(error));
    }
  }

  /** Fill the microphone and speaker lists (device names are known once one is allowed). */
  async listDevices() {
    const devices = (await navigator.mediaDevices?.enumerateDevices?.()) || [];
    const fillList = (select, kind, chosen) => {
      if (!select) return;
      const found = devices.filter((device) => device.kind === kind);
      select.replaceChildren(
        h("option", { value: "" }, t("Default")),
        found
          .filter((device) => device.deviceId && device.deviceId !== "default")
          .map((device, i) =>
            h("option", { value: device.deviceId }, device.label || t("Device {n}", { n: i + 1 })),
          ),
      );
      select.value = chosen;
      if (select.value !== chosen) select.value = "";
    };
    fillList(this.el("voice-mic"), "audioinput", stored("microphone", ""));
    const speaker = this.el("voice-speaker");
    if (speaker && "setSinkId" in HTMLMediaElement.prototype) {
      fillList(speaker, "audiooutput", stored("speaker", ""));
    } else if (speaker) {
      speaker.disabled = true;
      speaker.replaceChildren(h("option", { value: "" }, t("Chosen by the system")));
    }
  }

  routeOutput(peer) {
    const sink = stored("speaker", "");
    if ("setSinkId" in peer.audio) peer.audio.setSinkId(sink).catch(() => {});
  }

  startMeter() {
    const AudioCtx = window.AudioContext;
    if (!AudioCtx || !this.stream) return;
    const context = new AudioCtx();
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    context.createMediaStreamSource(this.stream).connect(analyser);
    this.meter = { context, analyser, samples: new Float32Array(analyser.fftSize) };
  }

  /** This person's own microphone level (0..1, root mean square). */
  ownLevel() {
    if (!this.meter) return 0;
    this.meter.analyser.getFloatTimeDomainData(this.meter.samples);
    let sum = 0;
    for (const value of this.meter.samples) sum += value * value;
    return Math.sqrt(sum / this.meter.samples.length);
  }

  // ------------------------------------------------------------------ the table's state
  /** The roster (seats and their players; whether this page's player is the host). */
  houses(seats, lobby, myHouse) {
    this.seats = seats;
    this.myHouse = myHouse || null;
    this.host = Boolean(lobby?.seats?.find((seat) => seat.house === this.myHouse)?.host);
    this.render();
  }

  /** Handle a message of the socket; true if it was a voice message (or a voice error). */
  received(message) {
    if (message.type === "error" && String(message.code || "").startsWith("voice/")) {
      this.showError(errorText(message));
      return true;
    }
    if (message.type !== "voice") return false;
    if (message.op === "state") this.changed(message);
    else if (message.op === "signal") this.signalled(message.from, message.data || {});
    else if (message.op === "aside_request") {
      if (!this.requests.includes(message.from)) this.requests.push(message.from);
      this.render();
      this.el("voice-requests")?.querySelector("button")?.focus();
    } else if (message.op === "aside_refused") {
      this.showNotice(t("{house} declined to step aside.", { house: houseName(message.by) }));
    } else if (message.op === "closed") {
      this.stop();
      this.showNotice(closedText(message.reason));
    }
    return true;
  }

  changed(state) {
    this.state = {
      members: state.members || {},
      asides: state.asides || [],
      host_muted: state.host_muted || [],
      you: state.you || null,
    };
    if (state.you && state.ice_servers?.length) this.iceServers = state.ice_servers;
    if (this.state.you) this.joining = false;
    else if (this.joined && !this.joining) {
      // the server no longer counts this page in (its socket reconnected): join again
      this.joining = true;
      this.send({ op: "join" });
    }
    this.requests = this.requests.filter((house) => this.memberOf(house));
    this.sync();
    this.render();
  }

  /** The peer id of `house` in table voice, or null. */
  memberOf(house) {
    const found = Object.entries(this.state.members).find(([, member]) => member.house === house);
    return found ? found[0] : null;
  }

  /** The aside `house` is in (a pair of houses), or null. */
  asideOf(house) {
    return house ? this.state.asides.find((pair) => pair.includes(house)) || null : null;
  }

  /** The peer ids this member may hear now (and so keeps a connection with). */
  audible() {
    const me = this.state.you;
    const mine = me && this.state.members[me];
    if (!mine) return [];
    const pair = this.asideOf(mine.house);
    return Object.entries(this.state.members)
      .filter(([id, other]) => {
        if (id === me || (mine.listen_only && other.listen_only)) return false;
        if (pair) return other.house && pair.includes(other.house);
        return other.listen_only || !this.asideOf(other.house);
      })
      .map(([id]) => id);
  }

  sync() {
    if (!this.joined) return;
    const wanted = new Set(this.audible());
    for (const id of [...this.peers.keys()]) if (!wanted.has(id)) this.closePeer(id);
    for (const id of wanted) if (!this.peers.has(id) && this.state.you < id) this.open(id, true);
    this.updateSending();
  }

  /** The track this member sends now: none while muted, host-muted at the table, or while
   * push-to-talk is not held. */
  outgoing() {
    const me = this.state.members[this.state.you];
    if (!this.stream || !me || me.listen_only || this.selfMuted) return null;
    if (this.mode === "ptt" && !this.held) return null;
    if (this.hostMuted() && !this.asideOf(me.house)) return null;
    return this.stream.getAudioTracks()[0] || null;
  }

  hostMuted() {
    return this.state.host_muted.includes(this.myHouse);
  }

  updateSending() {
    const track = this.outgoing();
    for (const peer of this.peers.values())
      for (const sender of peer.pc.getSenders())
        if (sender.track !== track) sender.replaceTrack(track).catch(() => {});
  }

  // ------------------------------------------------------------------ peer connections
  open(id, offer) {
    const member = this.state.members[id];
    const peer = new Peer(id, member?.house || null, this.iceServers);
    this.peers.set(id, peer);
    this.routeOutput(peer);
    peer.pc.addEventListener("icecandidate", (event) => {
      if (event.candidate) this.send({ op: "signal", to: id, data: { candidate: event.candidate.toJSON() } });
    });
    peer.pc.addEventListener("track", (event) => {
      peer.audio.srcObject = event.streams[0] || new MediaStream([event.track]);
      this.applyListening(peer);
      peer.audio.play().catch(() => {});
    });
    if (offer) {
      peer.then(async () => {
        const listenOnly = !this.outgoingAllowed();
        const transceiver = peer.pc.addTransceiver("audio", {
          direction: listenOnly ? "recvonly" : "sendrecv",
        });
        if (!listenOnly) await transceiver.sender.replaceTrack(this.outgoing());
        await peer.pc.setLocalDescription(await peer.pc.createOffer());
        this.send({ op: "signal", to: id, data: { sdp: peer.pc.localDescription.toJSON() } });
      });
    }
    return peer;
  }

  /** Whether this member may ever send (a seat, not a listen-only spectator). */
  outgoingAllowed() {
    const me = this.state.members[this.state.you];
    return Boolean(me && !me.listen_only);
  }

  closePeer(id) {
    this.peers.get(id)?.close();
    this.peers.delete(id);
  }

  signalled(from, data) {
    if (!this.joined) return;
    let peer = this.peers.get(from);
    if (!peer) {
      if (data.sdp?.type !== "offer") return;
      peer = this.open(from, false);
    }
    peer.then(async () => {
      const pc = peer.pc;
      if (data.sdp) {
        await pc.setRemoteDescription(data.sdp);
        for (const candidate of peer.pending.splice(0)) await pc.addIceCandidate(candidate);
        if (data.sdp.type === "offer") {
          const listenOnly = !this.outgoingAllowed();
          for (const transceiver of pc.getTransceivers()) {
            transceiver.direction = listenOnly ? "recvonly" : "sendrecv";
            if (!listenOnly) await transceiver.sender.replaceTrack(this.outgoing());
          }
          await pc.setLocalDescription(await pc.createAnswer());
          this.send({ op: "signal", to: from, data: { sdp: pc.localDescription.toJSON() } });
        }
      } else if (data.candidate) {
        if (pc.remoteDescription) await pc.addIceCandidate(data.candidate);
        else peer.pending.push(data.candidate);
      }
    });
  }

  /** Per-person mute and volume, as this listener set them for the peer's house. */
  applyListening(peer) {
    const muted = Boolean(this.muted[peer.house]);
    for (const receiver of peer.pc.getReceivers()) receiver.track.enabled = !muted;
    peer.audio.muted = muted;
    peer.audio.volume = (this.volumes[peer.house] ?? 100) / 100;
  }

  setPersonMuted(house, muted) {
    this.muted[house] = muted;
    store("muted", this.muted);
    for (const peer of this.peers.values()) if (peer.house === house) this.applyListening(peer);
    this.render();
  }

  setVolume(house, volume) {
    this.volumes[house] = volume;
    store("volumes", this.volumes);
    for (const peer of this.peers.values()) if (peer.house === house) this.applyListening(peer);
  }

  /** Each peer connection's audio counters (see the header comment). */
  async stats() {
    const all = [];
    for (const peer of this.peers.values()) {
      const entry = { peer: peer.id, house: peer.house, state: peer.pc.connectionState };
      entry.inbound = entry.outbound = null;
      (await peer.pc.getStats()).forEach((report) => {
        if (report.kind !== "audio") return;
        if (report.type === "inbound-rtp")
          entry.inbound = {
            bytesReceived: report.bytesReceived || 0,
            packetsReceived: report.packetsReceived || 0,
            audioLevel: report.audioLevel || 0,
            totalAudioEnergy: report.totalAudioEnergy || 0,
          };
        if (report.type === "outbound-rtp")
          entry.outbound = { bytesSent: report.bytesSent || 0, packetsSent: report.packetsSent || 0 };
      });
      all.push(entry);
    }
    return all;
  }

  /** Who speaks now: each peer's received level (its receiver's stats only), and this
   * person's own microphone. */
  async poll() {
    const speaking = new Set();
    if (this.joined) {
      for (const peer of this.peers.values()) {
        const receiver = peer.pc.getReceivers()[0];
        if (!peer.house || !receiver || peer.pc.connectionState !== "connected") continue;
        (await receiver.getStats()).forEach((report) => {
          if (report.type === "inbound-rtp" && (report.audioLevel || 0) > SPEAKING_LEVEL)
            speaking.add(peer.house);
        });
      }
      if (this.outgoing() && this.ownLevel() > SPEAKING_LEVEL) speaking.add(this.myHouse);
    }
    this.speaking = speaking;
    this.badges();
  }

  // ------------------------------------------------------------------ what the page shows
  showError(text) {
    const node = this.el("voice-error");
    if (!node) return;
    node.hidden = !text;
    node.textContent = text || "";
  }

  showNotice(text) {
    const node = this.el("voice-notice");
    if (node) node.textContent = text;
  }

  /** The speaking and talking-privately badges beside each house, wherever the page shows
   * one (the Houses panel and the roster: elements `.voice-badge[data-voice-house]`). */
  badges() {
    for (const badge of document.querySelectorAll(".voice-badge[data-voice-house]")) {
      const house = badge.dataset.voiceHouse;
      const speaking = Boolean(this.speaking?.has(house));
      const aside = Boolean(this.asideOf(house));
      const text = aside ? t("talking privately") : speaking ? t("speaking") : "";
      if (badge.textContent !== text) badge.textContent = text;
      badge.dataset.speaking = String(speaking);
      badge.dataset.aside = String(aside);
      badge.hidden = !text;
    }
  }

  render() {
    const root = this.el("voice");
    if (!root) return;
    const me = this.state.members[this.state.you];
    const inVoice = this.joined;
    this.el("voice-join").hidden = inVoice;
    this.el("voice-leave").hidden = !inVoice;
    const mute = this.el("voice-mute");
    mute.hidden = !inVoice || !this.myHouse;
    mute.setAttribute("aria-pressed", String(this.selfMuted));
    mute.textContent = this.selfMuted ? t("Unmute me") : t("Mute me");
    const pair = me ? this.asideOf(me.house) : null;
    const partner = pair ? pair.find((house) => house !== me.house) : null;
    this.el("voice-return").hidden = !partner;
    this.el("voice-status").textContent = this.statusText(me, partner);
    this.renderRequests();
    this.renderPeople(me, pair);
    this.badges();
  }

  statusText(me, partner) {
    if (!this.joined) return t("You are not in table voice.");
    if (!me) return t("Joining table voice…");
    if (me.listen_only) return t("You listen to the table.");
    if (partner) return t("You are talking privately with {house}.", { house: houseName(partner) });
    if (this.hostMuted()) return t("The host has muted you at the table.");
    if (this.selfMuted) return t("You are muted.");
    if (this.mode === "ptt")
      return this.held
        ? t("You are talking.")
        : t("Hold {key} to talk.", { key: this.key.label });
    return t("Your microphone is open.");
  }

  renderRequests() {
    const node = this.el("voice-requests");
    if (!node) return;
    node.replaceChildren(
      ...this.requests.map((house) =>
        h(
          "li",
          { dataset: { testid: `voice-request-${house}` } },
          t("{house} asks you to step aside.", { house: houseName(house) }),
          " ",
          button(t("Accept"), () => this.answer(house, true)),
          " ",
          button(t("Decline"), () => this.answer(house, false)),
        ),
      ),
    );
  }

  answer(house, accept) {
    this.send({ op: "aside_answer", to: house, accept });
    this.requests = this.requests.filter((other) => other !== house);
    this.render();
  }

  /** Every house in table voice: speaking, private talk, and this listener's controls. */
  renderPeople(me, pair) {
    const list = this.el("voice-people");
    if (!list) return;
    const active = document.activeElement;
    const focused = active?.closest?.("#voice-people") ? active.dataset.testid : null;
    const rows = this.seats
      .filter((seat) => this.memberOf(seat.house))
      .map((seat) => this.personRow(seat, me, pair));
    const listeners = Object.values(this.state.members).filter((member) => member.listen_only).length;
    if (listeners)
      rows.push(h("li", { class: "voice-listeners" }, t("Spectators listening: {n}", { n: listeners })));
    for (const [a, b] of this.state.asides)
      rows.push(
        h(
          "li",
          { class: "voice-aside", dataset: { testid: "voice-aside" } },
          t("{first} and {second} are talking privately.", { first: houseName(a), second: houseName(b) }),
        ),
      );
    list.replaceChildren(...rows);
    if (focused) list.querySelector(`[data-testid="${focused}"]`)?.focus();
  }

  personRow(seat, me, pair) {
    const house = seat.house;
    const name = houseName(house);
    const badge = h("span", { class: "voice-badge", dataset: { voiceHouse: house }, hidden: true });
    if (house === this.myHouse)
      return h(
        "li",
        { class: "voice-person is-you", dataset: { testid: `voice-person-${house}` } },
        `${name} (${t("you")})`,
        badge,
      );
    const muted = Boolean(this.muted[house]);
    const hostMuted = this.state.host_muted.includes(house);
    const controls = [
      h("input", {
        type: "range",
        min: 0,
        max: 100,
        value: this.volumes[house] ?? 100,
        "aria-label": t("Volume of {house}", { house: name }),
        dataset: { testid: `voice-volume-${house}` },
        oninput: (event) => this.setVolume(house, Number(event.target.value)),
      }),
      h(
        "button",
        {
          type: "button",
          class: "button button-small",
          "aria-pressed": String(muted),
          "aria-label": muted
            ? t("Unmute {house} for me", { house: name })
            : t("Mute {house} for me", { house: name }),
          dataset: { testid: `voice-mute-${house}` },
          onclick: () => this.setPersonMuted(house, !muted),
        },
        muted ? t("Unmute") : t("Mute"),
      ),
    ];
    if (this.host)
      controls.push(
        h(
          "button",
          {
            type: "button",
            class: "button button-small",
            "aria-pressed": String(hostMuted),
            dataset: { testid: `voice-host-mute-${house}` },
            onclick: () => this.send({ op: "host_mute", house, muted: !hostMuted }),
          },
          hostMuted
            ? t("Let {house} talk at the table", { house: name })
            : t("Mute {house} at the table", { house: name }),
        ),
      );
    const canAsk = me && !me.listen_only && !pair && !this.asideOf(house);
    if (canAsk)
      controls.push(
        h(
          "button",
          {
            type: "button",
            class: "button button-small",
            dataset: { testid: `voice-aside-${house}` },
            onclick: () => {
              this.send({ op: "aside", to: house });
              this.showNotice(t("You asked {house} to step aside.", { house: name }));
            },
          },
          t("Step aside with {house}", { house: name }),
        ),
      );
    return h(
      "li",
      { class: "voice-person", dataset: { testid: `voice-person-${house}` } },
      h("span", { class: "voice-name" }, name, seat.player ? ` · ${seat.player}` : "", " ", badge),
      hostMuted ? h("span", { class: "voice-host-muted" }, t("muted by the host")) : null,
      h("span", { class: "voice-controls" }, controls),
    );
  }
}

/** A small button saying `text` that runs `onclick`. */
function button(text, onclick) {
  return h("button", { type: "button", class: "button button-small", onclick }, text);
}

/** Why table voice was closed by the server, in plain words. */
function closedText(reason) {
  if (reason === "seat") return t("Table voice closed: you no longer hold this seat.");
  if (reason === "kicked") return t("Table voice closed: the host removed you from the game.");
  if (reason === "stopped") return t("Table voice closed: the game was stopped.");
  return t("You left table voice.");
}

/** A spectator's socket for table voice: the game's watch socket (`/ws/games/{id}/watch`),
 * which also brings the public view (ignored here). Reconnects by itself. */
export function watchSocket(gameId, onMessage) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}/ws/games/${encodeURIComponent(gameId)}/watch`;
  let socket;
  let retry = 500;
  function connect() {
    socket = new WebSocket(url);
    socket.addEventListener("open", () => (retry = 500));
    socket.addEventListener("message", (event) => {
      try {
        onMessage(JSON.parse(event.data));
      } catch {
        /* not JSON: ignore */
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4404) return;
      setTimeout(connect, retry);
      retry = Math.min(8000, retry * 2);
    });
  }
  connect();
  return {
    send(message) {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
  };
}
