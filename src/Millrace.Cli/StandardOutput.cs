using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace Millrace.Cli;

/// <summary>
/// Standard output as a stream that says when its reader has gone. The platform's console stream drops a write to a pipe
/// whose reader has closed it without a word (it ignores EPIPE), so <c>millrace world find ... | head -1</c> would run
/// the whole job for a reader that left after one line. Through this stream the first such write throws
/// <see cref="OutputClosedException"/>, which ends the run at once, quietly, with <see cref="ExitCodes.OutputClosed"/>;
/// later writes are dropped (the buffered text a closing writer flushes has no one to go to either).
/// </summary>
/// <remarks>
/// Tests give it a stream of their own; the process's pipe is written with <c>write(2)</c> itself, whose every outcome
/// is known: a short write goes on from where it stopped, a non-blocking pipe that is full (EAGAIN, as some parent
/// processes hand their children) is waited on, and EPIPE is the reader gone. A <see cref="FileStream"/> over the
/// descriptor could not be retried after a failure part way, since it does not say how much it wrote.
/// </remarks>
internal sealed partial class StandardOutput : Stream
{
    private const int Descriptor = 1;

    // errno values on Linux, and EAGAIN's on macOS; the platform's IOException carries EPIPE as its HResult.
    private const int Interrupted = 4;
    private const int TryAgain = 11;
    private const int TryAgainMac = 35;
    private const int BrokenPipe = 32;

    private readonly Stream? _inner;
    private volatile bool _readerGone;

    /// <summary>Initializes a new instance over a stream of the caller's (tests).</summary>
    /// <param name="inner">Where the bytes go; an <see cref="IOException"/> whose HResult is EPIPE is the reader gone.</param>
    public StandardOutput(Stream inner) => _inner = inner;

    // The process's own standard output, written through its descriptor.
    private StandardOutput() => _inner = null;

    /// <summary>Gets a value indicating whether the reader has gone.</summary>
    public bool ReaderGone => _readerGone;

    /// <inheritdoc />
    public override bool CanRead => false;

    /// <inheritdoc />
    public override bool CanSeek => false;

    /// <inheritdoc />
    public override bool CanWrite => true;

    /// <inheritdoc />
    public override long Length => throw new NotSupportedException();

    /// <inheritdoc />
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    /// <summary>
    /// Opens the process's standard output: on Unix, redirected to a pipe or a socket, it is written through its
    /// descriptor, where a closed reader is an error; a file or a terminal through the console's stream (whose writes to
    /// a file keep the offset the shell shares with the commands after it).
    /// </summary>
    /// <returns>The stream.</returns>
    public static Stream Open()
    {
        if (!OperatingSystem.IsWindows() && Console.IsOutputRedirected)
        {
            try
            {
                // A stream over the descriptor only to ask what it is: a pipe or a socket cannot seek, a file can.
                using var probe = new FileStream(new SafeFileHandle(Descriptor, ownsHandle: false), FileAccess.Write, bufferSize: 0);
                if (!probe.CanSeek)
                {
                    return new StandardOutput();
                }
            }
            catch (Exception exception) when (exception is IOException or ArgumentException or UnauthorizedAccessException or NotSupportedException)
            {
                // A descriptor the platform will not wrap (closed, or of a kind it refuses): the console's stream is left.
            }
        }

        return Console.OpenStandardOutput();
    }

    /// <inheritdoc />
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        if (_readerGone)
        {
            return;
        }

        try
        {
            if (_inner is null)
            {
                WriteToDescriptor(buffer);
            }
            else
            {
                _inner.Write(buffer);
            }
        }
        catch (IOException exception) when (exception.HResult == BrokenPipe)
        {
            _readerGone = true;
            throw new OutputClosedException(exception);
        }
    }

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    /// <inheritdoc />
    /// <remarks>Written at once: a pipe write blocks until the reader takes the bytes, as the console's stream does.</remarks>
    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        Write(buffer.Span);
        return ValueTask.CompletedTask;
    }

    /// <inheritdoc />
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <inheritdoc />
    public override void Flush()
    {
        if (!_readerGone)
        {
            _inner?.Flush();
        }
    }

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    /// <inheritdoc />
    public override void SetLength(long value) => throw new NotSupportedException();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _inner?.Dispose();
        }

        base.Dispose(disposing);
    }

    [LibraryImport("libc", EntryPoint = "write", SetLastError = true)]
    private static unsafe partial nint WriteBytes(int descriptor, byte* buffer, nint count);

    private unsafe void WriteToDescriptor(ReadOnlySpan<byte> buffer)
    {
        fixed (byte* start = buffer)
        {
            var written = 0;
            while (written < buffer.Length)
            {
                var result = WriteBytes(Descriptor, start + written, buffer.Length - written);
                if (result >= 0)
                {
                    written += (int)result;
                    continue;
                }

                var error = Marshal.GetLastPInvokeError();
                switch (error)
                {
                    case Interrupted:
                        break;
                    case TryAgain or TryAgainMac:
                        Thread.Sleep(1);
                        break;
                    default:
                        // As the platform reports it, EPIPE included (Write tells that one apart).
                        throw new IOException($"Standard output: {Marshal.GetPInvokeErrorMessage(error)}", error);
                }
            }
        }
    }
}

/// <summary>
/// Standard output's reader has gone (a pipe closed by <c>head</c>): not a failure to report but the end of the run.
/// Deliberately not an <see cref="IOException"/>, which the verbs report per file and go on.
/// </summary>
internal sealed class OutputClosedException(IOException inner) : Exception("Standard output's reader has gone.", inner);
