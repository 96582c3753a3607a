import Foundation
import OpenCapture

/// The object types of `capture scan --types`, by their Swift names (`face`, `qr`, `ean13`
/// …), and the JSON form of a detected object, shared with `capture frames --metadata`.
enum CodeTypes {
    static let all: [(name: String, type: AVMetadataObject.ObjectType)] = [
        ("qr", .qr), ("microQR", .microQR), ("aztec", .aztec), ("dataMatrix", .dataMatrix), ("pdf417", .pdf417), ("ean8", .ean8),
        ("ean13", .ean13), ("upce", .upce), ("code39", .code39), ("code39Mod43", .code39Mod43), ("code93", .code93),
        ("code128", .code128), ("itf14", .itf14), ("interleaved2of5", .interleaved2of5), ("codabar", .codabar),
        ("gs1DataBar", .gs1DataBar), ("gs1DataBarExpanded", .gs1DataBarExpanded), ("face", .face),
    ]

    static var names: String { all.map(\.name).joined(separator: ", ") }

    /// "qr,ean13" as types, matched without regard to case; throws naming the bad one.
    static func parse(_ option: String, _ text: String) throws -> [AVMetadataObject.ObjectType] {
        var types: [AVMetadataObject.ObjectType] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let found = all.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw UsageError.value(option, String(name), allowed: "a comma-separated list of \(names)")
            }
            if !types.contains(found.type) { types.append(found.type) }
        }
        return types
    }

    static func name(of type: AVMetadataObject.ObjectType) -> String {
        all.first { $0.type == type }?.name ?? type.rawValue
    }

    /// One object as JSON fields: its type (short name and Apple's string), the time of its
    /// frame in seconds, and a code's string and corners or a face's number, bounds ([x, y,
    /// width, height]) and angles (metadata-output coordinates).
    static func fields(_ object: AVMetadataObject) -> [String: Any] {
        var fields: [String: Any] = ["type": name(of: object.type), "object_type": object.type.rawValue, "time": object.time.seconds]
        if let code = object as? AVMetadataMachineReadableCodeObject {
            fields["string"] = code.stringValue ?? NSNull()
            fields["corners"] = code.corners.map { [Double($0.x), Double($0.y)] }
        }
        if let face = object as? AVMetadataFaceObject {
            fields["face_id"] = face.faceID
            fields["bounds"] = [face.bounds.origin.x, face.bounds.origin.y, face.bounds.width, face.bounds.height].map { Double($0) }
            if face.hasRollAngle { fields["roll"] = Double(face.rollAngle) }
            if face.hasYawAngle { fields["yaw"] = Double(face.yawAngle) }
        }
        return fields
    }
}
