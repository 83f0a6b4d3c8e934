using Microsoft.Win32.SafeHandles;

namespace Millrace.Cli;

/// <summary>
/// Standard output as a stream that says when its reader has gone. The platform's console stream drops a write to a pipe
/// whose reader has closed it without a word (it ignores EPIPE), so <c>millrace world find ... | head -1</c> would run
/// the whole job for a reader that left after one line. Through this stream the first such write throws
/// <see cref="OutputClosedException"/>, which ends the run at once, quietly, with <see cref="ExitCodes.OutputClosed"/>;
/// later writes are dropped (the buffered text a closing writer flushes has no one to go to either).
/// </summary>
internal sealed class StandardOutput(Stream inner) : Stream
{
    // EPIPE: its value on Linux and macOS, which the platform's IOException carries as its HResult.
    private const int BrokenPipe = 32;

    private volatile bool _closed;

    /// <summary>Gets a value indicating whether the reader has gone.</summary>
    public bool IsClosed => _closed;

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
    /// Opens the process's standard output: on Unix, redirected to a pipe or a socket, it is written through its file
    /// descriptor, where a closed reader is an error; a file or a terminal through the console's stream (a file stream would write a shared
    /// file at an offset of its own, over what the shell writes after it).
    /// </summary>
    /// <returns>The stream.</returns>
    public static Stream Open()
    {
        if (!OperatingSystem.IsWindows() && Console.IsOutputRedirected)
        {
            try
            {
                var stream = new FileStream(new SafeFileHandle(1, ownsHandle: false), FileAccess.Write, bufferSize: 0);
                if (!stream.CanSeek)
                {
                    return new StandardOutput(stream);
                }

                stream.Dispose();
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
        if (_closed)
        {
            return;
        }

        try
        {
            inner.Write(buffer);
        }
        catch (IOException exception) when (exception.HResult == BrokenPipe)
        {
            throw Closed(exception);
        }
    }

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    /// <inheritdoc />
    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (_closed)
        {
            return;
        }

        try
        {
            await inner.WriteAsync(buffer, cancellationToken).ConfigureAwait(false);
        }
        catch (IOException exception) when (exception.HResult == BrokenPipe)
        {
            throw Closed(exception);
        }
    }

    /// <inheritdoc />
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <inheritdoc />
    public override void Flush()
    {
        if (!_closed)
        {
            inner.Flush();
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
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    private OutputClosedException Closed(IOException exception)
    {
        _closed = true;
        return new OutputClosedException(exception);
    }
}

/// <summary>
/// Standard output's reader has gone (a pipe closed by <c>head</c>): not a failure to report but the end of the run.
/// Deliberately not an <see cref="IOException"/>, which the verbs report per file and go on.
/// </summary>
internal sealed class OutputClosedException(IOException inner) : Exception("Standard output's reader has gone.", inner);
