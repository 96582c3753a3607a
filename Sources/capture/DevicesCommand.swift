import Foundation
import OpenCapture

/// `capture devices [--json]`.
enum DevicesCommand {
    static let spec = CommandSpec(
        name: "devices", summary: "List cameras and microphones (simulated ones always; real V4L2 and ALSA ones when present)",
        description: """
            Lists the cameras, then the microphones: unique ID (use it with --device), name,
            position and type. For microphones POSITION is unspecified and the JSON adds the
            sample rate and channel count they deliver.
            """,
        options: [.flag("--json", help: "Print a JSON array instead of a table")], run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let devices = DeviceLookup.all + DeviceLookup.microphones
        if args.has("--json") {
            let list: [[String: Any]] = devices.map { device in
                var entry: [String: Any] = [
                    "uniqueID": device.uniqueID, "localizedName": device.localizedName, "modelID": device.modelID,
                    "manufacturer": device.manufacturer, "position": DeviceLookup.positionName(device.position),
                    "deviceType": DeviceLookup.typeName(device.deviceType), "formats": device.formats.count,
                    "isDefault": device == AVCaptureDevice.default(for: device.hasMediaType(.audio) ? .audio : .video),
                ]
                if let asbd = device.formats.first?.formatDescription.audioStreamBasicDescription {
                    entry["mediaType"] = "audio"
                    entry["sampleRate"] = asbd.mSampleRate
                    entry["channels"] = Int(asbd.mChannelsPerFrame)
                } else {
                    entry["mediaType"] = "video"
                }
                return entry
            }
            let data = try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return 0
        }
        let idWidth = max(9, devices.map(\.uniqueID.count).max() ?? 0)
        let nameWidth = max(4, devices.map(\.localizedName.count).max() ?? 0)
        print(pad("UNIQUE ID", idWidth) + "  " + pad("NAME", nameWidth) + "  POSITION  TYPE")
        for device in devices {
            print(pad(device.uniqueID, idWidth) + "  " + pad(device.localizedName, nameWidth) + "  "
                + pad(DeviceLookup.positionName(device.position), 8) + "  " + DeviceLookup.typeName(device.deviceType))
        }
        return 0
    }
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
