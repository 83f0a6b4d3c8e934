namespace Millrace.Cli;

/// <summary>Opens the file a command names, or standard input for <c>-</c>.</summary>
internal static class CliInput
{
    /// <summary>Opens <paramref name="path"/> for sequential reading.</summary>
    /// <param name="path">A file path, or <c>-</c>.</param>
    /// <param name="console">Supplies standard input.</param>
    /// <param name="stream">The opened stream; dispose it.</param>
    /// <returns><see langword="false"/> when the file cannot be opened; the reason is on standard error.</returns>
    public static bool TryOpen(string path, CliConsole console, out Stream stream)
    {
        if (path == "-")
        {
            stream = new NonClosingStream(console.Input);
            return true;
        }

        if (Directory.Exists(path))
        {
            console.ReportError(path, new Millrace.Error(CliErrorCodes.Open, "The input is a folder; name a file."));
            stream = Stream.Null;
            return false;
        }

        try
        {
            stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan | FileOptions.Asynchronous);
            return true;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            console.Report(path, exception);
            stream = Stream.Null;
            return false;
        }
    }

    /// <summary>
    /// Reads a whole input, at most <paramref name="maxBytes"/> of it (<see cref="ReadAllBytesAsync"/>). Failures are
    /// reported in one line.
    /// </summary>
    /// <returns>The bytes, or <see langword="null"/> after reporting why not.</returns>
    public static async Task<byte[]?> ReadAllAsync(string path, CliConsole console, long maxBytes, CancellationToken cancellationToken)
    {
        if (!TryOpen(path, console, out var stream))
        {
            return null;
        }

        await using (stream)
        {
            try
            {
                return await ReadAllBytesAsync(stream, maxBytes, cancellationToken);
            }
            catch (MillraceException exception)
            {
                console.ReportError(path, exception.Error);
                return null;
            }
        }
    }

    /// <summary>
    /// Reads a whole stream, at most <paramref name="maxBytes"/> of it: the one policy for every input read whole, a
    /// verb's or a batch's file, so that a device such as <c>/dev/zero</c>, a pipe that never ends or a file larger than
    /// its format's reader would accept is refused at the limit instead of filling memory.
    /// </summary>
    /// <exception cref="CliException">The input is larger than the limit (<see cref="CliErrorCodes.TooLarge"/>).</exception>
    public static async Task<byte[]> ReadAllBytesAsync(Stream stream, long maxBytes, CancellationToken cancellationToken)
    {
        using var buffer = new PooledBufferWriter(16 * 1024);
        int read;
        while ((read = await stream.ReadAsync(buffer.GetMemory(16 * 1024), cancellationToken)) > 0)
        {
            buffer.Advance(read);
            if (buffer.WrittenCount > maxBytes)
            {
                throw new CliException(CliErrorCodes.TooLarge, string.Create(System.Globalization.CultureInfo.InvariantCulture, $"The input is larger than the limit of {maxBytes} bytes."));
            }
        }

        return buffer.ToArray();
    }

    /// <summary>Keeps standard input open when the command disposes what it read.</summary>

    private sealed class NonClosingStream(Stream inner) : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count) => inner.Read(buffer, offset, count);

        public override int Read(Span<byte> buffer) => inner.Read(buffer);

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            inner.ReadAsync(buffer, offset, count, cancellationToken);

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            inner.ReadAsync(buffer, cancellationToken);

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
