import Foundation
import OpenCapture

/// `capture devices [--json]`.
enum DevicesCommand {
    static let spec = CommandSpec(
        name: "devices", summary: "List cameras (simulated ones always; real V4L2 cameras when supported)",
        description: "Lists the cameras: unique ID (use it with --device), name, position and type.",
        options: [.flag("--json", help: "Print a JSON array instead of a table")], run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let devices = DeviceLookup.all
        if args.has("--json") {
            let list: [[String: Any]] = devices.map { device in
                [
                    "uniqueID": device.uniqueID, "localizedName": device.localizedName, "modelID": device.modelID,
                    "manufacturer": device.manufacturer, "position": DeviceLookup.positionName(device.position),
                    "deviceType": DeviceLookup.typeName(device.deviceType), "formats": device.formats.count,
                    "isDefault": device == AVCaptureDevice.default(for: .video),
                ]
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
