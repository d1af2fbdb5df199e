"""Where results go: an MQTT broker through the journal, or JSON lines on stdout."""

import json
import queue
import sys
import threading
import time

import paho.mqtt.client as mqtt

from .journal import Journal

#: The topic's last level for each element message.
TOPIC_LEVEL = {"barcode": "barcode", "barcode-status": "status", "barcode-session": "session"}


def _body(payload):
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def _with_id(body, msg_id):
    """The JSON object `body` with "msg-id" as its first member."""
    return '{"msg-id":"%s",%s' % (msg_id, body[1:]) if body != "{}" else '{"msg-id":"%s"}' % msg_id


class StdoutSink:
    """Writes each message as one JSON line on stdout (no broker configured)."""

    def __init__(self, name):
        self.prefix = f"{name}-{int(time.time())}"
        self.count = 0

    def submit(self, camera, kind, payload):
        """Writes one element message of `camera` at once, with an id of its own."""
        self.count += 1
        sys.stdout.write(_with_id(_body(payload), f"{self.prefix}-{self.count}") + "\n")
        sys.stdout.flush()

    def stats(self):
        """Figures for the health endpoint."""
        return {"output": "stdout", "written": self.count}

    def close(self, timeout):
        """Flushes stdout (nothing waits for an acknowledgement)."""
        sys.stdout.flush()


#: Every message goes with QoS 2: the broker hands it on once, at PUBREL.
QOS = 2


class MqttSink:
    """Publishes messages with QoS 2 from the journal; a message counts as sent only at its PUBCOMP.

    One thread owns the journal: it appends what `submit` queued and marks what
    the broker completed in one synced transaction, then hands paho-mqtt the
    next unsent rows while fewer than `max_inflight` wait for their PUBCOMP.
    The session is persistent (clean_session=False, a client id stable per
    journal): after a reconnection paho-mqtt resends its in-flight PUBLISH
    (DUP) and PUBREL packets with the same packet ids, which the broker's kept
    session recognises, so nothing is handed on twice. Rows still unacknowledged
    when the service stops are sent again, as new messages, when it next starts.
    """

    def __init__(self, cfg, journal_path, service_name):
        self.cfg = cfg
        self.prefix = cfg.topic_prefix.rstrip("/")
        self.journal = Journal(journal_path)
        self.incoming = queue.Queue()
        self.acks = queue.Queue()
        self.inflight = {}          # paho mid -> journal seq
        self.last_sent = 0          # highest seq handed to paho
        self.connected = threading.Event()
        self.stopping = threading.Event()
        self.deadline = 0.0
        self.published = 0
        self.acked = 0
        self.reconnects = 0
        self.pending = self.journal.pending()
        client_id = cfg.client_id or f"{service_name}-{self.journal.id}"
        self.client = mqtt.Client(client_id=client_id, clean_session=False, protocol=mqtt.MQTTv311)
        if cfg.username:
            self.client.username_pw_set(cfg.username, cfg.password or None)
        self.client.max_inflight_messages_set(cfg.max_inflight)
        self.client.reconnect_delay_set(min_delay=1, max_delay=4)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = lambda client, userdata, mid: self.acks.put(mid)
        self.client.connect_async(cfg.host, cfg.port, keepalive=cfg.keepalive)
        self.client.loop_start()
        self.thread = threading.Thread(target=self._pump, name="mqtt-journal", daemon=True)
        self.thread.start()

    def _on_connect(self, client, userdata, flags, rc):
        if rc == 0:
            if not flags.get("session present"):
                self._restart_inflight(client)
            self.connected.set()
            self.incoming.put(None)  # wake the pump
        else:
            print(f"rlbarcode-fleet: broker {self.cfg.host}:{self.cfg.port} refused the connection: "
                  f"{mqtt.connack_string(rc)}", file=sys.stderr)

    @staticmethod
    def _restart_inflight(client):
        """The broker holds no session for this client (first start, or a broker that lost its
        store): a PUBREL for a message it has forgotten would complete without delivering it,
        so every in-flight message goes out again as a PUBLISH. paho-mqtt 1.6 does this itself
        only for clean sessions; on_connect runs before it resends, on its network thread."""
        with client._out_message_mutex:
            for m in client._out_messages.values():
                if m.qos == 2 and m.state == mqtt.mqtt_ms_resend_pubrel:
                    m.state = mqtt.mqtt_ms_publish
                    m.dup = True

    def _on_disconnect(self, client, userdata, rc):
        if self.connected.is_set() and rc != mqtt.MQTT_ERR_SUCCESS:  # not our own disconnect()
            self.reconnects += 1
            print(f"rlbarcode-fleet: lost the broker {self.cfg.host}:{self.cfg.port} "
                  f"({mqtt.error_string(rc)}); results are kept in the journal", file=sys.stderr)
        self.connected.clear()

    def submit(self, camera, kind, payload):
        """Queues one element message of `camera` for the journal (called on the main loop)."""
        topic = f"{self.prefix}/{camera}/{TOPIC_LEVEL[kind]}"
        self.incoming.put((topic, _body(payload), 1 if kind == "barcode-status" else 0))

    def _drain(self, timeout):
        new, acked = [], []
        try:
            item = self.incoming.get(timeout=timeout)
            while True:
                if item is not None:
                    new.append(item)
                item = self.incoming.get_nowait()
        except queue.Empty:
            pass
        while True:
            try:
                mid = self.acks.get_nowait()
            except queue.Empty:
                break
            seq = self.inflight.pop(mid, None)
            if seq is not None:
                acked.append(seq)
        return new, acked

    def _pump(self):
        last_tidy = last_prune = time.monotonic()
        while True:
            new, acked = self._drain(0.02)
            self.journal.commit(new, acked)
            self.acked += len(acked)
            if self.connected.is_set():
                self._send_more()
            if self.stopping.is_set() and self.incoming.empty() and (
                    time.monotonic() > self.deadline or self.journal.pending() == 0):
                break
            if time.monotonic() - last_tidy > 1:
                self.pending = self.journal.pending()
                last_tidy = time.monotonic()
                if last_tidy - last_prune > 60:
                    self.journal.prune()
                    last_prune = last_tidy
        self.journal.close()

    def _send_more(self):
        room = self.cfg.max_inflight - len(self.inflight)
        if room <= 0:
            return
        for seq, topic, body, retain in self.journal.unacked_after(self.last_sent, room):
            info = self.client.publish(topic, _with_id(body, self.journal.message_id(seq)),
                                       qos=QOS, retain=bool(retain))
            self.inflight[info.mid] = seq
            self.last_sent = seq
            self.published += 1

    def stats(self):
        """Publishing figures for the health endpoint."""
        return {"output": "mqtt", "broker": f"{self.cfg.host}:{self.cfg.port}",
                "connected": self.connected.is_set(), "published": self.published,
                "acked": self.acked, "unacked": self.pending, "inflight": len(self.inflight),
                "reconnects": self.reconnects}

    def close(self, timeout):
        """Keeps sending for up to `timeout` s until every journalled message is acknowledged,
        then stops; what is still unacknowledged is sent on the next start."""
        self.deadline = time.monotonic() + timeout
        self.stopping.set()
        self.incoming.put(None)
        self.thread.join(timeout=timeout + 5)
        self.client.disconnect()
        self.client.loop_stop()
