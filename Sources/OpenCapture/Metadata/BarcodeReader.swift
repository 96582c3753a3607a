import CBarcode
import Foundation

/// Apple's code types over zxing-cpp's symbologies (through the `CBarcode` C shim): which
/// types Linux can detect, and the reading of one image.
///
/// zxing-cpp was chosen over ZBar because it reads the 2-D codes Apple lists (Aztec, Data
/// Matrix, PDF417, Micro QR) that ZBar does not; see ARCHITECTURE.md "Metadata".
enum BarcodeReader {
    /// The types the reader detects, in Apple's header order. Missing: `.gs1DataBarLimited`
    /// and `.microPDF417` (zxing-cpp 1.4 has no reader for them), faces, bodies, salient objects.
    static let supportedTypes: [AVMetadataObject.ObjectType] = [
        .upce, .code39, .code39Mod43, .ean13, .ean8, .code93, .code128, .pdf417, .qr, .aztec, .interleaved2of5, .itf14,
        .dataMatrix, .codabar, .gs1DataBar, .gs1DataBarExpanded, .microQR,
    ]

    /// The zxing-cpp symbology bits that serve `type`.
    static func symbology(of type: AVMetadataObject.ObjectType) -> Int32 {
        switch type {
        case .upce: Int32(OC_BARCODE_UPCE)
        case .code39, .code39Mod43: Int32(OC_BARCODE_CODE39)
        // Reading EAN-13 alone reports a UPC-A as EAN-13 with its leading 0, as Apple does.
        case .ean13: Int32(OC_BARCODE_EAN13)
        case .ean8: Int32(OC_BARCODE_EAN8)
        case .code93: Int32(OC_BARCODE_CODE93)
        case .code128: Int32(OC_BARCODE_CODE128)
        case .pdf417: Int32(OC_BARCODE_PDF417)
        case .qr: Int32(OC_BARCODE_QR)
        case .aztec: Int32(OC_BARCODE_AZTEC)
        case .interleaved2of5, .itf14: Int32(OC_BARCODE_ITF)
        case .dataMatrix: Int32(OC_BARCODE_DATA_MATRIX)
        case .codabar: Int32(OC_BARCODE_CODABAR)
        case .gs1DataBar: Int32(OC_BARCODE_DATABAR)
        case .gs1DataBarExpanded: Int32(OC_BARCODE_DATABAR_EXPANDED)
        case .microQR: Int32(OC_BARCODE_MICRO_QR)
        default: 0
        }
    }

    /// One symbol read: Apple's type, text and corners in the pixels of the image read
    /// (top-left, top-right, bottom-right, bottom-left in the symbol's own orientation).
    struct Symbol: Equatable {
        var type: AVMetadataObject.ObjectType
        var text: String
        var corners: [CGPoint]
    }

    /// How the pixels are laid out (`OC_LAYOUT_`).
    enum Layout: Int32 {
        case luma8 = 0
        case luma16 = 1
        case bgrx = 2
    }

    /// Reads the symbols of `types` in an image. Symbols whose type was not asked for, or
    /// whose text fails the type's own check (ITF-14's GS1 digit, Code 39's mod 43), are
    /// left out.
    static func read(
        _ pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, layout: Layout, types: Set<AVMetadataObject.ObjectType>,
        tryHarder: Bool = true
    ) -> [Symbol] {
        let formats = types.reduce(Int32(0)) { $0 | symbology(of: $1) }
        guard formats != 0, width > 0, height > 0 else { return [] }
        let list = oc_barcode_read(
            pixels.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), Int32(bytesPerRow), layout.rawValue, formats,
            tryHarder ? 1 : 0)
        defer { oc_barcode_list_free(list) }
        var symbols: [Symbol] = []
        for index in 0..<oc_barcode_list_count(list) {
            let item = oc_barcode_list_item(list, index)
            guard let text = item.text.map({ String(decoding: UnsafeRawBufferPointer(start: $0, count: item.textLength), as: UTF8.self) }),
                let type = appleType(format: item.format, text: text, requested: types)
            else { continue }
            let x = [item.x.0, item.x.1, item.x.2, item.x.3], y = [item.y.0, item.y.1, item.y.2, item.y.3]
            let corners = (0..<4).map { CGPoint(x: Double(x[$0]), y: Double(y[$0])) }
            symbols.append(Symbol(type: type, text: type == .code39Mod43 ? String(text.dropLast()) : text, corners: corners))
        }
        return symbols
    }

    /// Apple's type for a zxing-cpp result, or nil if it was not asked for.
    static func appleType(format: Int32, text: String, requested: Set<AVMetadataObject.ObjectType>) -> AVMetadataObject.ObjectType? {
        switch format {
        case Int32(OC_BARCODE_CODE39):
            if requested.contains(.code39Mod43), hasCode39Mod43Check(text) { return .code39Mod43 }
            return requested.contains(.code39) ? .code39 : nil
        case Int32(OC_BARCODE_ITF):
            if requested.contains(.itf14), text.count == 14, hasGS1CheckDigit(text) { return .itf14 }
            return requested.contains(.interleaved2of5) ? .interleaved2of5 : nil
        default:
            let type = requested.first { symbology(of: $0) == format && $0 != .code39Mod43 && $0 != .itf14 }
            return type
        }
    }

    /// Code 39's optional check character: the sum of the other characters' values mod 43.
    static func hasCode39Mod43Check(_ text: String) -> Bool {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")
        let values = text.map { character in alphabet.firstIndex(of: character) }
        guard values.count >= 2, values.allSatisfy({ $0 != nil }) else { return false }
        let sum = values.dropLast().reduce(0) { $0 + $1! }
        return sum % 43 == values.last!!
    }

    /// A GS1 number's last digit checks the others (weights 3, 1, 3 … from the right).
    static func hasGS1CheckDigit(_ digits: String) -> Bool {
        let values = digits.compactMap(\.wholeNumberValue)
        guard values.count == digits.count, values.count >= 2 else { return false }
        var sum = 0
        for (offset, value) in values.dropLast().reversed().enumerated() { sum += value * (offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == values.last!
    }

    /// What zxing-cpp's encoder needs to draw `text` as `type`: its symbology bit (0 when
    /// there is no encoder: Micro QR, GS1 DataBar) and the text, with Code 39's mod 43
    /// character appended for `.code39Mod43`.
    static func encoderInput(_ text: String, as type: AVMetadataObject.ObjectType) -> (symbology: Int32, text: String) {
        switch type {
        case .microQR, .gs1DataBar, .gs1DataBarExpanded: return (0, text)
        case .ean13 where text.count == 12: return (Int32(OC_BARCODE_UPCA), text)
        case .code39Mod43:
            let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")
            let values = text.compactMap { alphabet.firstIndex(of: $0) }
            guard values.count == text.count, !values.isEmpty else { return (0, text) }
            return (Int32(OC_BARCODE_CODE39), text + String(alphabet[values.reduce(0, +) % 43]))
        default: return (symbology(of: type), text)
        }
    }
}
