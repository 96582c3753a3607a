/// The page `/` serves: the live picture and a control panel bound to `/control`, with
/// readouts from `/status`. Self-contained (no external scripts), so it works offline.
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
        pre { font-size: 12px; white-space: pre-wrap; }
        </style></head><body>
        <div id="view"><img id="live" alt="live picture"><div id="error"></div><pre id="readout"></pre></div>
        <div id="panel">
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
        document.getElementById("live").src = withToken("/stream.mjpg");
        async function control(settings) {
          const reply = await fetch("/control", { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(settings) });
          const body = await reply.json();
          document.getElementById("error").textContent = reply.ok ? "" : body.error;
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
            Object.assign(document.getElementById("iso"), { min: x.minISO, max: x.maxISO, value: x.iso });
            Object.assign(document.getElementById("exposureDuration"), { min: x.minDuration * 1000, max: Math.min(x.maxDuration, 0.5) * 1000, value: x.duration * 1000 });
            Object.assign(document.getElementById("videoZoomFactor"), { min: status.zoom.min, max: status.zoom.max });
            document.getElementById("torchSet").hidden = !status.torch;
            ranged = true;
          }
          document.getElementById("readout").textContent =
            `${status.device.name}  ${status.format.width}x${status.format.height}  ${status.frames.fps} fps  dropped ${status.frames.dropped}\n` +
            `ISO ${x.iso.toFixed(0)}  shutter ${(x.duration * 1000).toFixed(2)} ms  bias ${x.targetBias}  (${x.mode})\n` +
            `white balance ${status.whiteBalance.temperature.toFixed(0)} K tint ${status.whiteBalance.tint.toFixed(1)} (${status.whiteBalance.mode})\n` +
            `lens ${status.focus.lensPosition.toFixed(3)} (${status.focus.mode})  zoom ${status.zoom.factor.toFixed(2)}  pressure ${status.systemPressure}`;
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
