import Foundation
import SimulatedCamera
import Testing

@testable import OpenCapture

/// A multi-cam session's `systemPressureCost` measures each camera against its own
/// backend's thermal budget (`ThermalPressureReporting.sustainablePixelRate`); a camera
/// without a thermal model has none.
@Suite("Multi-camera thermal budget: per backend", .serialized)
struct MultiCamThermalBudgetTests {
    @Test("cameras without a thermal model cost nothing thermally, though they use the readout budget")
    func camerasWithoutThermalModel() throws {
        let provider = SolidColorProvider(cameras: [SolidColorCamera(uniqueID: "test:cool-1"), SolidColorCamera(uniqueID: "test:cool-2")])
        try DeviceRegistry(providers: [provider]).withCurrent {
            let session = AVCaptureMultiCamSession()
            for id in ["test:cool-1", "test:cool-2"] {
                let input = try AVCaptureDeviceInput(device: try #require(AVCaptureDevice(uniqueID: id)))
                #expect(session.canAddInput(input))
                session.addInputWithNoConnections(input)
            }
            #expect(session.hardwareCost > 0)
            #expect(session.systemPressureCost == 0)
        }
    }

    @Test("with a simulated camera beside them, only the simulated camera's share of its thermal model counts")
    func onlyThermalCamerasCount() throws {
        let registry = DeviceRegistry(providers: [SimulatedDeviceProvider(), SolidColorProvider(cameras: [SolidColorCamera(uniqueID: "test:cool")])])
        try registry.withCurrent {
            let session = AVCaptureMultiCamSession()
            let back = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let format = try #require(back.formats.first { $0.isMultiCamSupported && $0.formatDescription.dimensions.width == 1280 })
            try back.lockForConfiguration()
            back.activeFormat = format
            back.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
            back.unlockForConfiguration()
            for device in [back, try #require(AVCaptureDevice(uniqueID: "test:cool"))] {
                session.addInputWithNoConnections(try AVCaptureDeviceInput(device: device))
            }
            let sustainable = (ThermalModel.thresholds[3] - ThermalModel.ambient) / ThermalModel.risePerGigapixel * 1e9
            let size = back.activeFormat.formatDescription.dimensions
            let expected = Double(size.width) * Double(size.height) * 30 / sustainable
            #expect(abs(Double(session.systemPressureCost) - expected) < 1e-6, "\(session.systemPressureCost) against \(expected)")
        }
    }
}
