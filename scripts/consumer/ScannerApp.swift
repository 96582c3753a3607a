// A QR scanner written as iOS scanner libraries write one (QRCodeReader.swift, CodeScanner):
// a metadata output added to the session, its types set after adding it, the delegate on the
// main queue, and the first code's string handed to the app. The simulated scene holds a
// printed QR code (the test's stand-in for the world in front of the phone, not app code);
// the check is that the app gets that code's string.
import AVFoundation
import Foundation

/// The scanner's view controller, without its view.
final class CodeScanner: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    private let sessionQueue = DispatchQueue(label: "com.example.scanner.session")
    private let lock = NSLock()
    private var found: String?, calls = 0

    func configureAndStart() {
        sessionQueue.async { [self] in
            session.beginConfiguration()
            // 720p, as scanners that set a preset choose: a code needs no more, and reading is cheaper.
            session.sessionPreset = .hd1280x720
            if let camera = AVCaptureDevice.default(for: .video), let input = try? AVCaptureDeviceInput(device: camera), session.canAddInput(input) {
                session.addInput(input)
                // Codes are read up close: focus continuously, near range first where it can.
                if (try? camera.lockForConfiguration()) != nil {
                    if camera.isFocusModeSupported(.continuousAutoFocus) { camera.focusMode = .continuousAutoFocus }
                    if camera.isAutoFocusRangeRestrictionSupported { camera.autoFocusRangeRestriction = .near }
                    camera.unlockForConfiguration()
                }
            }
            let metadataOutput = AVCaptureMetadataOutput()
            if session.canAddOutput(metadataOutput) {
                session.addOutput(metadataOutput)
                metadataOutput.setMetadataObjectsDelegate(self, queue: .main)
                metadataOutput.metadataObjectTypes = [.qr]
            }
            session.commitConfiguration()
            session.startRunning()
        }
    }

    func stopSession() { sessionQueue.sync { session.stopRunning() } }
    var scanned: String? { lock.withLock { found } }
    var delegateCalls: Int { lock.withLock { calls } }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        dispatchPrecondition(condition: .onQueue(.main))
        lock.withLock { calls += 1 }
        guard let code = metadataObjects.first as? AVMetadataMachineReadableCodeObject, code.type == .qr, let string = code.stringValue else { return }
        lock.withLock { if found == nil { found = string } }
    }
}

/// Puts a QR code in front of the default camera, scans it; fails the run unless it is read.
func runScannerApp() {
    let name = "scanner", began = Date(), text = "https://opencapture.example/scan?id=30"
    guard let simulation = AVCaptureDevice.default(for: .video)?.simulation else { fail(name, "the default camera is not the simulated one") }
    // An 8 cm code 30 cm away, as a user holds a phone over a printed one.
    do { try simulation.setSceneElements([.init(.code(text, type: .qr), width: 0.08, distance: 0.3)]) } catch {
        fail(name, "cannot place a QR code in the simulated scene: \(error)")
    }
    defer { try? simulation.setSceneElements([]) }
    let scanner = CodeScanner()
    scanner.configureAndStart()
    guard runMainLoop(upTo: 10, until: { scanner.scanned != nil }), let scanned = scanner.scanned else {
        fail(name, "no QR code read within 10 s of startRunning() (\(scanner.delegateCalls) metadata delegate calls)")
    }
    let read = Date().timeIntervalSince(began)
    scanner.stopSession()
    guard scanned == text else { fail(name, "read \"\(scanned)\", the code says \"\(text)\"") }
    print(String(format: "consumer: scanner: read \"%@\" %.2f s after startRunning() was asked", scanned, read))
}
