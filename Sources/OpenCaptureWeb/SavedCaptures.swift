import Foundation
import OpenCapture

/// The page's photo and record buttons: an `AVCapturePhotoOutput` and an
/// `AVCaptureMovieFileOutput` the server adds to the session, saving into one directory on
/// the server (`photo-N.jpg`, `movie-N.mov`), and the files offered for download.
///
/// Only files made here are served (by exact name), so a request can never name another
/// file. Delegates run on the outputs' own queues; the routes wait for them on their
/// connection threads, bounded.
final class SavedCaptures: NSObject, AVCapturePhotoCaptureDelegate, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    struct Failure: Error {
        let status: Int
        let reason: String
    }

    let directory: URL
    let photoOutput = AVCapturePhotoOutput()
    let movieOutput = AVCaptureMovieFileOutput()
    private let condition = NSCondition()
    private var made: Set<String> = []
    private var counter = 0
    /// Photos being taken, by settings ID: the file's name once written, or the error.
    private var photos: [Int64: Result<String, Failure>?] = [:]
    /// The movie being recorded, and how the last one ended.
    private var recording: String?
    private var finished: [String: Result<String, Failure>] = [:]

    init(directory: URL) {
        self.directory = directory
    }

    /// Adds the outputs the session can take (photo, movie); false if it takes neither.
    func attach(to session: AVCaptureSession) -> Bool {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        var any = false
        for output in [photoOutput, movieOutput] as [AVCaptureOutput] where session.canAddOutput(output) {
            session.addOutput(output)
            any = true
        }
        return any
    }

    func detach(from session: AVCaptureSession) {
        if movieOutput.isRecording { movieOutput.stopRecording() }
        session.removeOutput(photoOutput)
        session.removeOutput(movieOutput)
    }

    var canTakePhotos: Bool { photoOutput.connection(with: .video) != nil }
    var canRecord: Bool { movieOutput.connection(with: .video) != nil }
    var isRecording: Bool { movieOutput.isRecording }

    /// The path of a saved file a client may download, or nil.
    func file(named name: String) -> URL? {
        condition.lock()
        defer { condition.unlock() }
        return made.contains(name) ? directory.appendingPathComponent(name) : nil
    }

    private func nextName(_ stem: String, _ suffix: String) -> String {
        condition.lock()
        defer { condition.unlock() }
        counter += 1
        return "\(stem)-\(counter).\(suffix)"
    }

    // MARK: photos

    /// Takes a JPEG photo and waits (up to 15 s) for its file; returns the file's name.
    func takePhoto() throws(Failure) -> String {
        guard canTakePhotos else { throw Failure(status: 409, reason: "the session cannot take photos now") }
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        condition.lock()
        photos[settings.uniqueID] = .some(nil)
        condition.unlock()
        photoOutput.capturePhoto(with: settings, delegate: self)
        let deadline = Date(timeIntervalSinceNow: 15)
        condition.lock()
        defer {
            photos[settings.uniqueID] = nil
            condition.unlock()
        }
        while true {
            if case .some(.some(let result)) = photos[settings.uniqueID] { return try result.get() }
            if !condition.wait(until: deadline) { throw Failure(status: 504, reason: "the photo did not finish within 15 s") }
        }
    }

    /// On the photo output's queue.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        let id = photo.resolvedSettings.uniqueID
        let result: Result<String, Failure>
        if let error {
            result = .failure(Failure(status: 500, reason: "the photo failed: \(error)"))
        } else if let data = photo.fileDataRepresentation() {
            let name = nextName("photo", "jpg")
            do {
                try data.write(to: directory.appendingPathComponent(name), options: .atomic)
                result = .success(name)
            } catch {
                result = .failure(Failure(status: 500, reason: "the photo cannot be saved: \(error.localizedDescription)"))
            }
        } else {
            result = .failure(Failure(status: 500, reason: "the photo has no file data"))
        }
        condition.lock()
        if case .success(let name) = result { made.insert(name) }
        if photos[id] != nil { photos[id] = .some(result) }
        condition.broadcast()
        condition.unlock()
    }

    // MARK: movies

    /// Starts recording a movie; returns the name it will have.
    func startRecording() throws(Failure) -> String {
        guard canRecord else { throw Failure(status: 409, reason: "the session cannot record now") }
        guard !movieOutput.isRecording else { throw Failure(status: 409, reason: "already recording") }
        let name = nextName("movie", "mov")
        condition.lock()
        recording = name
        condition.unlock()
        movieOutput.startRecording(to: directory.appendingPathComponent(name), recordingDelegate: self)
        return name
    }

    /// Stops the recording and waits (up to 15 s) for the file to be finished; returns its
    /// name.
    func stopRecording() throws(Failure) -> String {
        condition.lock()
        let name = recording
        condition.unlock()
        guard let name, movieOutput.isRecording else { throw Failure(status: 409, reason: "not recording") }
        movieOutput.stopRecording()
        let deadline = Date(timeIntervalSinceNow: 15)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = finished.removeValue(forKey: name) { return try result.get() }
            if !condition.wait(until: deadline) { throw Failure(status: 504, reason: "the movie did not finish within 15 s") }
        }
    }

    /// On the movie output's queue.
    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
        let name = outputFileURL.lastPathComponent
        let succeeded = error == nil || (error as NSError?)?.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true
        condition.lock()
        if succeeded {
            made.insert(name)
            finished[name] = .success(name)
        } else {
            finished[name] = .failure(Failure(status: 500, reason: "the recording failed: \(error.map { "\($0)" } ?? "")"))
        }
        if recording == name { recording = nil }
        condition.broadcast()
        condition.unlock()
    }
}
