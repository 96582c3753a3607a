import Foundation
import MediaIO
import SimulatedCamera

extension AVCaptureDevice.Simulation {
    /// A flat card placed in the simulated camera's 3-D scene, in front of the scene's
    /// content (Linux addition): a code drawn from text, or a picture file, at a distance and
    /// an angle, so focus, exposure, noise and motion blur act on it as on a real print.
    public struct SceneElement: Sendable, Equatable {
        /// What is printed on the card.
        public enum Content: Sendable, Equatable {
            /// `text` encoded as `type` (zxing-cpp's encoder) in black on white paper, inside
            /// its quiet zone. Types without an encoder here: Micro QR, GS1 DataBar (all kinds),
            /// MicroPDF417, and the non-code types.
            case code(String, type: AVMetadataObject.ObjectType)
            /// A PNG or JPEG picture, as `Scene.image` reads it.
            case picture(path: String)
            /// A display showing each frame's presentation time as a QR code, for measuring
            /// latency (see `AVCaptureDevice.Simulation.timeCodes(in:)`, which reads it). It is
            /// drawn flat and facing the camera where the card's projection falls, after the
            /// ISP, sharp and at full contrast whatever the focus, exposure or motion; its
            /// yaw, pitch and roll must be 0, and it must fit inside the frame at 2 pixels or
            /// more a module (the code is 25 modules across: 21 and a quiet zone of 2).
            case timeCode
        }

        public var content: Content
        /// Where the card's centre appears, normalised sensor coordinates ((0, 0) top left).
        public var x: Double
        public var y: Double
        /// The card's width in metres (its height follows the picture's shape).
        public var width: Double
        /// The distance of its centre along the optical axis, metres.
        public var distance: Double
        /// Turns in degrees: yaw about the card's vertical axis, pitch about its horizontal
        /// axis, roll in its plane.
        public var yaw: Double
        public var pitch: Double
        public var roll: Double

        public init(
            _ content: Content, x: Double = 0.5, y: Double = 0.5, width: Double = 0.1, distance: Double = 0.5, yaw: Double = 0,
            pitch: Double = 0, roll: Double = 0
        ) {
            self.content = content
            self.x = x
            self.y = y
            self.width = width
            self.distance = distance
            self.yaw = yaw
            self.pitch = pitch
            self.roll = roll
        }
    }

    /// Places cards in the scene, replacing those placed before (empty removes them);
    /// applies from the next frame. They are projected with the active format's field of view
    /// and shape: place them again after changing to a format of another shape. Throws for a
    /// code its type cannot hold, a type with no encoder, an unreadable picture, or a card
    /// behind the camera or turned edge-on (|yaw| or |pitch| ≥ 90°).
    public func setSceneElements(_ elements: [SceneElement]) throws(SceneError) {
        let format = device.activeFormat
        let dimensions = format.formatDescription.dimensions
        let aspect = Double(dimensions.width) / Double(max(1, dimensions.height))
        var pictures: [ScenePicture] = []
        var timeCodes: [TimeCodeStamp] = []
        for element in elements {
            guard element.distance > 0, element.distance.isFinite, element.width > 0, element.width.isFinite, abs(element.yaw) < 90,
                abs(element.pitch) < 90, element.x.isFinite, element.y.isFinite, element.roll.isFinite
            else {
                throw SceneError(description: "a scene element needs a positive distance and width, and |yaw|, |pitch| under 90°")
            }
            let image: SceneImage
            var content = (minU: 0.0, minV: 0.0, maxU: 1.0, maxV: 1.0)
            if element.content == .timeCode {
                timeCodes.append(try Self.timeCodeStamp(for: element, format: format))
                continue
            }
            switch element.content {
            case .code(let text, let type):
                let input = BarcodeReader.encoderInput(text, as: type)
                guard input.symbology != 0, let made = CodePicture.make(text: input.text, symbology: input.symbology) else {
                    throw SceneError(description: "cannot encode '\(text)' as \(type.rawValue)")
                }
                image = made.image
                content = made.content
            case .picture(let path):
                image = try Self.decodePicture(path, fitting: camera.largestImageSize)
            case .timeCode:
                continue
            }
            pictures.append(ScenePicture(
                image: image, content: content, centerX: element.x, centerY: element.y, width: element.width, distance: element.distance,
                yaw: element.yaw, pitch: element.pitch, roll: element.roll, horizontalFieldOfView: Double(format.videoFieldOfView),
                aspect: aspect))
        }
        camera.scenePictures = pictures
        camera.timeCodeStamps = timeCodes
    }

    /// Where a time-code card falls in the active format's pixels: its width projected with
    /// the format's horizontal field of view.
    static func timeCodeStamp(for element: SceneElement, format: AVCaptureDevice.Format) throws(SceneError) -> TimeCodeStamp {
        guard element.yaw == 0, element.pitch == 0, element.roll == 0 else {
            throw SceneError(description: "a time code faces the camera: its yaw, pitch and roll must be 0")
        }
        let dimensions = format.formatDescription.dimensions
        let halfAngle = Double(format.videoFieldOfView) * .pi / 360
        let fraction = element.width / (2 * element.distance * tan(halfAngle))
        guard let stamp = TimeCodeStamp(
            centerX: element.x, centerY: element.y, side: fraction * Double(dimensions.width), width: Int(dimensions.width),
            height: Int(dimensions.height))
        else {
            throw SceneError(description: "the time code must lie inside the frame at 2 pixels or more a module (make it wider or nearer)")
        }
        return stamp
    }

    /// Where each placed card's code (or picture) appears now (time codes left out): its top-left, top-right,
    /// bottom-right and bottom-left corners in normalised sensor coordinates, as a code's
    /// own corners (Linux addition, for checking what a metadata output reports).
    public var sceneElementCorners: [[CGPoint]] {
        camera.scenePictures.map { picture in picture.contentCorners.map { CGPoint(x: $0.x, y: $0.y) } }
    }

    static func decodePicture(_ path: String, fitting largest: (width: Int, height: Int)) throws(SceneError) -> SceneImage {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) } catch {
            throw SceneError(description: "cannot read '\(path)'")
        }
        let picture: PictureDecoder.Picture
        do {
            picture = try PictureDecoder.decode(data, fitting: PictureDecoder.Size(width: largest.width, height: largest.height))
        } catch {
            throw SceneError(description: "'\(path)': \(error)")
        }
        return SceneImage(width: picture.width, height: picture.height, sRGB8: picture.samples, name: path)
    }
}
