/// The page `/` serves: the live picture, a luma histogram and readouts from `/status`, and
/// a control panel bound to `/control` (camera, preset, format, frame rate, HDR, colour
/// space, exposure, white balance, focus, zoom, torch), the session's own capture controls
/// bound to `/controls`, photo and record buttons (with a save directory), and for a file
/// deck its transport: play, pause, play backwards and a speed menu.
/// Self-contained (no external scripts), so it works offline.
enum WebPage {
    static let html = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>OpenCapture</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        body { font: 14px system-ui, sans-serif; margin: 0; background: #111; color: #ddd; display: flex; flex-wrap: wrap; }
        #view { flex: 1 1 640px; padding: 8px; } #live { width: 100%; cursor: crosshair; background: #000; display: block; }
        #panel { flex: 0 0 300px; padding: 8px; } fieldset { border: 1px solid #444; margin: 0 0 8px; }
        label { display: block; margin: 4px 0; } input[type=range] { width: 100%; } #error { color: #f66; min-height: 1.2em; }
        pre { font-size: 12px; white-space: pre-wrap; } #histogram { width: 100%; height: 80px; background: #000; display: block; }
        #files a { display: block; color: #8cf; }
        </style></head><body>
        <div id="view"><canvas id="live" width="640" height="360" aria-label="live picture"></canvas><div id="error"></div><canvas id="histogram" width="256" height="80"></canvas><pre id="readout"></pre></div>
        <div id="panel">
        <fieldset><legend>Camera</legend>
        <label>Camera <select id="device"></select></label>
        <label>Preset <select id="sessionPreset"></select></label>
        <label>Format <select id="activeFormat"></select></label>
        <label>Frame rate (fps) <input type="number" id="frameRate" min="1" max="240" step="any"></label>
        <label><input type="checkbox" id="videoHDREnabled"> Video HDR</label>
        <label>Colour space <select id="colorSpace"></select></label></fieldset>
        <fieldset id="transportSet" hidden><legend>Transport</legend>
        <button id="transportBackward" title="Play backwards">&#9664; Back</button> <button id="transportPause">Pause</button>
        <button id="transportPlay" title="Play forwards">Play &#9654;</button>
        <label>Speed <select id="transportSpeed"></select></label></fieldset>
        <fieldset id="appControlsSet" hidden><legend>App controls</legend><div id="appControls"></div></fieldset>
        <fieldset id="captureSet" hidden><legend>Capture</legend>
        <button id="photo">Photo</button> <button id="record">Record</button><div id="files"></div></fieldset>
        <fieldset><legend>Exposure</legend>
        <label>Mode <select id="exposureMode"><option>continuousAutoExposure</option><option>autoExpose</option><option>locked</option></select></label>
        <label>ISO <span id="isoValue"></span><input type="range" id="iso" step="1"></label>
        <label>Shutter (ms) <span id="durationValue"></span><input type="range" id="exposureDuration" step="0.1"></label>
        <label>Bias (EV) <input type="range" id="exposureTargetBias" min="-8" max="8" step="0.1" value="0"></label></fieldset>
        <fieldset><legend>White balance</legend>
        <label>Mode <select id="whiteBalanceMode"><option>continuousAutoWhiteBalance</option><option>autoWhiteBalance</option><option>locked</option></select></label>
        <label>Temperature (K) <input type="range" id="temperature" min="2000" max="10000" step="50" value="5000"></label>
        <label>Tint <input type="range" id="tint" min="-150" max="150" step="1" value="0"></label></fieldset>
        <fieldset><legend>Focus and zoom</legend>
        <label>Mode <select id="focusMode"><option>continuousAutoFocus</option><option>autoFocus</option><option>locked</option></select></label>
        <label>Lens position <input type="range" id="lensPosition" min="0" max="1" step="0.01"></label>
        <label>Zoom <input type="range" id="videoZoomFactor" min="1" max="10" step="0.1" value="1"></label>
        <small>Click the picture to focus and expose there.</small></fieldset>
        <fieldset id="torchSet"><legend>Torch</legend>
        <label>Mode <select id="torchMode"><option>off</option><option>on</option><option>auto</option></select></label></fieldset>
        </div>
        <script>
        const token = new URLSearchParams(location.search).get("token");
        const withToken = (path) => token ? path + "?token=" + encodeURIComponent(token) : path;
        const headers = token ? { "Authorization": "Bearer " + token } : {};
        // The live picture: /stream.mjpg read with fetch, each part drawn once its last byte is
        // in. (An <img> shows a part only when the next one begins: a frame interval later.)
        // While a picture decodes, only the newest part waits, so a slow client skips frames.
        const live = document.getElementById("live");
        const liveContext = live.getContext("2d");
        let decoding = false, waitingPart = null;
        function drawPart(jpeg) {
          if (decoding) { waitingPart = jpeg; return; }
          decoding = true;
          createImageBitmap(new Blob([jpeg], { type: "image/jpeg" })).then((picture) => {
            if (live.width !== picture.width || live.height !== picture.height) { live.width = picture.width; live.height = picture.height; }
            liveContext.drawImage(picture, 0, 0);
            picture.close();
            live.dataset.frames = String(Number(live.dataset.frames || 0) + 1);
          }).catch(() => {}).finally(() => {
            decoding = false;
            if (waitingPart) { const next = waitingPart; waitingPart = null; drawPart(next); }
          });
        }
        const headerEnd = new Uint8Array([13, 10, 13, 10]);
        function indexOf(bytes, pattern) {
          search: for (let i = 0; i + pattern.length <= bytes.length; i++) {
            for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue search;
            return i;
          }
          return -1;
        }
        async function watchLive() {
          try {
            const reply = await fetch(withToken("/stream.mjpg"), { headers });
            const reader = reply.body.getReader();
            let pending = new Uint8Array(0);
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              const joined = new Uint8Array(pending.length + value.length);
              joined.set(pending);
              joined.set(value, pending.length);
              pending = joined;
              for (;;) {
                // Each part: the delimiter, its headers, a blank line, Content-Length bytes.
                const end = indexOf(pending, headerEnd);
                if (end < 0) break;
                const length = /Content-Length:\s*(\d+)/i.exec(new TextDecoder().decode(pending.subarray(0, end)));
                const start = end + 4;
                if (!length) { pending = pending.slice(start); continue; }
                if (pending.length < start + Number(length[1])) break;
                drawPart(pending.slice(start, start + Number(length[1])));
                pending = pending.slice(start + Number(length[1]));
              }
            }
          } catch (e) {}
          setTimeout(watchLive, 1000);
        }
        watchLive();
        async function control(settings) {
          const reply = await fetch("/control", { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(settings) });
          const body = await reply.json();
          document.getElementById("error").textContent = reply.ok ? "" : body.error;
        }
        async function post(path, body) {
          const reply = await fetch(withToken(path), { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
          const answer = await reply.json();
          document.getElementById("error").textContent = reply.ok ? "" : answer.error;
          return reply.ok ? answer : null;
        }
        for (const id of ["device", "sessionPreset", "colorSpace"]) {
          document.getElementById(id).addEventListener("change", (e) => { ranged = false; control({ [id]: e.target.value }); });
        }
        document.getElementById("activeFormat").addEventListener("change", (e) => { ranged = false; control({ activeFormat: Number(e.target.value) }); });
        document.getElementById("frameRate").addEventListener("change", (e) => control({ frameRate: Number(e.target.value) }));
        document.getElementById("videoHDREnabled").addEventListener("change", (e) => control({ videoHDREnabled: e.target.checked }));
        function offer(file) {
          const link = Object.assign(document.createElement("a"), { href: withToken(file), textContent: file.split("/").pop(), download: "" });
          document.getElementById("files").prepend(link);
        }
        document.getElementById("photo").addEventListener("click", async () => { const made = await post("/photo", {}); if (made) offer(made.file); });
        document.getElementById("record").addEventListener("click", async () => {
          const recording = document.getElementById("record").textContent === "Stop";
          const made = await post("/record", { action: recording ? "stop" : "start" });
          if (made && recording) offer(made.file);
        });
        // A file deck's transport: the buttons play at the menu's speed one way or the other
        // (the deck stops at an end at speed 0, so they never send 0); the menu plays at once.
        const speeds = [-8, -4, -2, -1, -0.5, -0.25, 0.25, 0.5, 1, 2, 4, 8];
        fill("transportSpeed", speeds.map((v) => [v, v + "x"]), 1);
        const chosenSpeed = () => Math.abs(Number(document.getElementById("transportSpeed").value)) || 1;
        document.getElementById("transportPlay").addEventListener("click", () => control({ transportMode: "playing", transportSpeed: chosenSpeed() }));
        document.getElementById("transportBackward").addEventListener("click", () => control({ transportMode: "playing", transportSpeed: -chosenSpeed() }));
        document.getElementById("transportPause").addEventListener("click", () => control({ transportMode: "notPlaying" }));
        document.getElementById("transportSpeed").addEventListener("change", (e) => control({ transportMode: "playing", transportSpeed: Number(e.target.value) }));
        // The session's own controls (AVCaptureSlider and the rest): built when their list
        // changes; a drag is an interaction (the app hears the fullscreen appearance).
        let controlsShape = "";
        function buildControls(controls) {
          const shape = JSON.stringify(controls.list.map((c) => [c.kind, c.title, c.min, c.max, c.step, c.values, c.count]));
          document.getElementById("appControlsSet").hidden = controls.list.length === 0;
          if (shape === controlsShape) return;
          controlsShape = shape;
          const box = document.getElementById("appControls");
          box.textContent = "";
          for (const c of controls.list) {
            const label = document.createElement("label");
            label.append(c.title + " ");
            const readout = Object.assign(document.createElement("span"), { id: "appControlValue" + c.index });
            label.append(readout);
            let input;
            if (c.kind === "picker") {
              input = document.createElement("select");
              for (let i = 0; i < c.count; i++) input.append(new Option(c.titles[i] || String(i), i));
              input.addEventListener("change", (e) => post("/controls", { index: c.index, selectedIndex: Number(e.target.value) }));
            } else {
              input = Object.assign(document.createElement("input"), { type: "range", min: c.min, max: c.max, step: c.step || "any" });
              input.addEventListener("pointerdown", () => post("/controls", { interaction: "begin" }));
              input.addEventListener("change", () => post("/controls", { interaction: "end" }));
              input.addEventListener("input", (e) => post("/controls", { index: c.index, value: Number(e.target.value) }));
            }
            input.id = "appControl" + c.index;
            label.append(input);
            box.append(label);
          }
        }
        function showControls(controls) {
          buildControls(controls);
          for (const c of controls.list) {
            const input = document.getElementById("appControl" + c.index);
            const value = c.kind === "picker" ? (c.titles[c.selectedIndex] || c.selectedIndex) : c.value;
            document.getElementById("appControlValue" + c.index).textContent = c.kind === "picker" ? value : Number(value).toFixed(2);
            if (document.activeElement !== input) input.value = c.kind === "picker" ? c.selectedIndex : c.value;
            input.disabled = !c.enabled || !controls.active;
          }
        }
        function drawHistogram(bins) {
          const canvas = document.getElementById("histogram"), g = canvas.getContext("2d");
          g.clearRect(0, 0, canvas.width, canvas.height);
          const top = Math.max(1, ...bins), w = canvas.width / Math.max(bins.length, 1);
          g.fillStyle = "#ccc";
          bins.forEach((n, i) => { const h = n / top * canvas.height; g.fillRect(i * w, canvas.height - h, w, h); });
        }
        function fill(id, entries, selected) {
          const menu = document.getElementById(id);
          menu.textContent = "";
          for (const [value, text] of entries) menu.append(new Option(text, value, false, String(value) === String(selected)));
        }
        for (const id of ["exposureMode", "whiteBalanceMode", "focusMode", "torchMode"]) {
          document.getElementById(id).addEventListener("change", (e) => control({ [id]: e.target.value }));
        }
        for (const id of ["iso", "exposureTargetBias", "temperature", "tint", "lensPosition", "videoZoomFactor"]) {
          document.getElementById(id).addEventListener("input", (e) => control({ [id]: Number(e.target.value) }));
        }
        document.getElementById("exposureDuration").addEventListener("input", (e) => control({ exposureDuration: Number(e.target.value) / 1000 }));
        document.getElementById("live").addEventListener("click", (e) => {
          const box = e.target.getBoundingClientRect();
          control({ tap: [(e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height] });
        });
        let ranged = false;
        function show(status) {
          const x = status.exposure;
          if (!ranged) {
            fill("device", status.cameras.map((c) => [c.uniqueID, c.name]), status.device.uniqueID);
            fill("sessionPreset", status.presets.map((p) => [p.rawValue, p.name]), status.sessionPreset);
            fill("activeFormat", status.formats.map((f) => [f.index, `${f.width}x${f.height} ${f.pixelFormat} ${f.frameRates.map((r) => r[1]).join("/")} fps${f.videoHDR ? " HDR" : ""}`]), status.activeFormat);
            const format = status.formats[status.activeFormat] || { colorSpaces: ["sRGB"], videoHDR: false };
            fill("colorSpace", format.colorSpaces.map((c) => [c, c]), status.colorSpace);
            document.getElementById("videoHDREnabled").disabled = !format.videoHDR;
            Object.assign(document.getElementById("iso"), { min: x.minISO, max: x.maxISO, value: x.iso });
            Object.assign(document.getElementById("exposureDuration"), { min: x.minDuration * 1000, max: Math.min(x.maxDuration, 0.5) * 1000, value: x.duration * 1000 });
            Object.assign(document.getElementById("videoZoomFactor"), { min: status.zoom.min, max: status.zoom.max });
            document.getElementById("torchSet").hidden = !status.torch;
            ranged = true;
          }
          document.getElementById("frameRate").value = Number(status.frameRate.toFixed(3));
          document.getElementById("videoHDREnabled").checked = status.videoHDREnabled;
          document.getElementById("captureSet").hidden = !status.capture.photos && !status.capture.movies;
          document.getElementById("photo").disabled = !status.capture.photos;
          document.getElementById("record").disabled = !status.capture.movies;
          document.getElementById("record").textContent = status.capture.recording ? "Stop" : "Record";
          const t = status.transport;
          document.getElementById("transportSet").hidden = !t.supported;
          const menu = document.getElementById("transportSpeed");
          if (t.supported && t.speed !== 0 && document.activeElement !== menu) menu.value = String(t.speed);
          showControls(status.controls);
          drawHistogram(status.histogram);
          document.getElementById("readout").textContent =
            `${status.device.name}  ${status.format.width}x${status.format.height}  ${status.frames.fps} fps  dropped ${status.frames.dropped}\n` +
            `ISO ${x.iso.toFixed(0)}  shutter ${(x.duration * 1000).toFixed(2)} ms  bias ${x.targetBias}  (${x.mode})\n` +
            (status.whiteBalance.temperature === null ? `white balance gains ${status.whiteBalance.gains.red.toFixed(2)}/${status.whiteBalance.gains.green.toFixed(2)}/${status.whiteBalance.gains.blue.toFixed(2)} (${status.whiteBalance.mode})\n`
              : `white balance ${status.whiteBalance.temperature.toFixed(0)} K tint ${status.whiteBalance.tint.toFixed(1)} (${status.whiteBalance.mode})\n`) +
            `lens ${status.focus.lensPosition.toFixed(3)} (${status.focus.mode})  zoom ${status.zoom.factor.toFixed(2)}  pressure ${status.systemPressure}` +
            (t.supported ? `\ntransport ${t.mode} at ${t.speed}x  delivered ${status.frames.delivered}` : "");
        }
        // Polled rather than followed through /events: a page with an endless event stream
        // never counts as loaded, which headless browsers (and their screenshots) wait for.
        async function refresh() {
          try { show(await (await fetch(withToken("/status"), { headers })).json()); }
          catch (e) { document.getElementById("error").textContent = "status: " + e; }
        }
        setInterval(refresh, 500); refresh();
        </script></body></html>
        """#
}
