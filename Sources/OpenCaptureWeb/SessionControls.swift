import Foundation
import OpenCapture

/// The session's own capture controls (iOS 18's `AVCaptureSlider`, `AVCaptureIndexPicker`,
/// `AVCaptureSystemZoomSlider`, `AVCaptureSystemExposureBiasSlider`) as the page shows them
/// and as `POST /controls` changes them: the page is the Camera Control of a Linux session.
///
/// `POST /controls` takes one of:
/// - `{"index": I, "value": V}`: a slider's new value (snapped to its steps or listed
///   values; a system slider sets its device's zoom or exposure bias);
/// - `{"index": I, "selectedIndex": N}`: a picker's new index;
/// - `{"interaction": "begin"}` / `{"interaction": "end"}`: a user started or stopped
///   adjusting (the controls delegate hears the fullscreen appearance begin and end).
/// `I` is the control's place in `AVCaptureSession.controls`, as `/status` lists them.
enum SessionControls {
    struct Refusal: Error {
        let reason: String
    }

    /// What `/status` lists under `controls`.
    static func json(_ session: AVCaptureSession) -> [String: Any] {
        let list = session.controls.enumerated().map { index, control -> [String: Any] in
            var entry: [String: Any] = ["index": index, "enabled": control.isEnabled]
            switch control {
            case let slider as AVCaptureSlider:
                entry.merge([
                    "kind": "slider", "title": slider.localizedTitle, "symbol": slider.symbolName, "value": slider.value,
                    "min": slider.minimumValue, "max": slider.maximumValue,
                ]) { $1 }
                if let step = slider.step { entry["step"] = step }
                if let values = slider.listedValues { entry["values"] = values }
                if let format = slider.localizedValueFormat { entry["format"] = format }
            case let picker as AVCaptureIndexPicker:
                entry.merge([
                    "kind": "picker", "title": picker.localizedTitle, "symbol": picker.symbolName,
                    "selectedIndex": picker.selectedIndex, "count": picker.numberOfIndexes, "titles": picker.localizedIndexTitles,
                ]) { $1 }
            case let zoom as AVCaptureSystemZoomSlider:
                entry.merge([
                    "kind": "systemZoom", "title": "Zoom", "symbol": "plus.magnifyingglass", "value": Double(zoom.device.videoZoomFactor),
                    "min": Double(zoom.device.minAvailableVideoZoomFactor), "max": Double(zoom.device.maxAvailableVideoZoomFactor),
                ]) { $1 }
            case let bias as AVCaptureSystemExposureBiasSlider:
                entry.merge([
                    "kind": "systemExposureBias", "title": "Exposure", "symbol": "plusminus.circle", "value": bias.device.exposureTargetBias,
                    "min": bias.device.minExposureTargetBias, "max": bias.device.maxExposureTargetBias,
                ]) { $1 }
            default:
                entry["kind"] = "unknown"
            }
            return entry
        }
        return ["active": session.areControlsActive, "fullscreen": session.areControlsInFullscreenAppearance, "list": list]
    }

    /// Applies a `POST /controls` body, or throws a refusal having changed nothing.
    static func apply(_ body: Data, to session: AVCaptureSession) throws(Refusal) {
        guard let request = JSONValue.object(in: body) else {
            throw Refusal(reason: "the body must be a JSON object, e.g. {\"index\": 0, \"value\": 1.5}")
        }
        let known: Set = ["index", "value", "selectedIndex", "interaction"]
        if let unknown = request.keys.sorted().first(where: { !known.contains($0) }) {
            throw Refusal(reason: "unknown field '\(unknown)'; known: index with value or selectedIndex, or interaction")
        }
        if let interaction = request["interaction"] {
            guard request.count == 1, let phase = interaction.string, phase == "begin" || phase == "end" else {
                throw Refusal(reason: "interaction must be \"begin\" or \"end\", alone")
            }
            session.controlSurfaceInteraction(began: phase == "begin")
            return
        }
        let controls = session.controls
        guard let index = request["index"]?.integer, controls.indices.contains(index) else {
            throw Refusal(reason: "index must be a whole number, the place of a control in /status controls.list (0..<\(controls.count))")
        }
        do {
            switch controls[index] {
            case let picker as AVCaptureIndexPicker:
                guard request["value"] == nil, let selected = request["selectedIndex"]?.integer else {
                    throw Refusal(reason: "control \(index) is a picker: give selectedIndex (0..<\(picker.numberOfIndexes))")
                }
                try picker.selectIndexAsUser(selected)
            case let control:
                guard request["selectedIndex"] == nil, let number = request["value"]?.number, number.isFinite else {
                    throw Refusal(reason: "control \(index) is a slider: give value (a number)")
                }
                switch control {
                case let slider as AVCaptureSlider: try slider.changeValueAsUser(Float(number))
                case let zoom as AVCaptureSystemZoomSlider: try zoom.changeZoomFactorAsUser(CGFloat(number))
                case let bias as AVCaptureSystemExposureBiasSlider: try bias.changeExposureTargetBiasAsUser(Float(number))
                default: throw Refusal(reason: "control \(index) cannot be changed from here")
                }
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch let exception as AVCaptureException {
            throw Refusal(reason: exception.reason)
        } catch {
            throw Refusal(reason: "\(error)")
        }
    }
}
