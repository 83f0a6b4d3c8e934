using System.Globalization;
using System.Text;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Snbt;

/// <summary>
/// Writes SNBT that the chosen syntax's game reads back to the same tree: every number carries its type suffix (ints
/// excepted), floats use the shortest form that reads back to the same bits, names are quoted only when they must be.
/// A value that syntax cannot spell is refused, never written as something else: NaN (both games read <c>NaN</c> as a
/// string), an empty name (both refuse one), in <see cref="SnbtSyntax.Modern"/> an infinity (refused by the game), in
/// <see cref="SnbtSyntax.Legacy"/> a list of mixed types and an unpaired surrogate (it has no escapes). An empty list
/// is written <c>[]</c>, which reads as a list of End tags, as in Minecraft: SNBT cannot spell an empty list's type.
/// </summary>
public static class SnbtWriter
{
    /// <summary>Formats a tag as SNBT.</summary>
    /// <param name="tag">The tag.</param>
    /// <param name="pretty">Whether to break lines and indent by four spaces.</param>
    /// <param name="syntax">The game whose grammar must read it back: <see cref="SnbtSyntax.Modern"/> (1.21.5 and later) by default.</param>
    /// <returns>The SNBT text.</returns>
    /// <exception cref="ArgumentException">The tree holds a value the syntax cannot spell (the message names it and its path), or nests too deeply for this thread's stack.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="syntax"/> is not one of <see cref="SnbtSyntax"/>'s values.</exception>
    public static string Write(NbtTag tag, bool pretty = false, SnbtSyntax syntax = SnbtSyntax.Modern)
    {
        ArgumentNullException.ThrowIfNull(tag);
        if (syntax is not (SnbtSyntax.Modern or SnbtSyntax.Legacy))
        {
            throw new ArgumentOutOfRangeException(nameof(syntax), syntax, "Not an SNBT syntax.");
        }

        var writer = new Writer(pretty, syntax, strict: true, output: null);
        writer.Append(tag, 0);
        return writer.Text.ToString();
    }

    /// <summary>
    /// Writes a tag as SNBT to <paramref name="output"/> as it is formatted, a few kilobytes at a time, so a large tree's
    /// text is never held whole. A value the syntax cannot spell is refused where it is met: what was written before it
    /// stays written (write to a temporary file and replace the target only when this returns, as the CLI does).
    /// </summary>
    /// <param name="tag">The tag.</param>
    /// <param name="output">Where the text goes.</param>
    /// <param name="pretty">Whether to break lines and indent by four spaces.</param>
    /// <param name="syntax">The game whose grammar must read it back.</param>
    /// <exception cref="ArgumentException">The tree holds a value the syntax cannot spell (the message names it and its path), or nests too deeply for this thread's stack.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="syntax"/> is not one of <see cref="SnbtSyntax"/>'s values.</exception>
    public static void WriteTo(NbtTag tag, TextWriter output, bool pretty = false, SnbtSyntax syntax = SnbtSyntax.Modern)
    {
        ArgumentNullException.ThrowIfNull(tag);
        ArgumentNullException.ThrowIfNull(output);
        if (syntax is not (SnbtSyntax.Modern or SnbtSyntax.Legacy))
        {
            throw new ArgumentOutOfRangeException(nameof(syntax), syntax, "Not an SNBT syntax.");
        }

        var writer = new Writer(pretty, syntax, strict: true, output);
        writer.Append(tag, 0);
        writer.Flush();
    }

    /// <summary>
    /// Formats a tag for display (<see cref="NbtTag.ToString"/>): the 1.21.5 syntax, but a value it cannot spell is
    /// shown as the game's own printer shows it (<c>NaNd</c>, <c>""</c>), not refused.
    /// </summary>
    internal static string Display(NbtTag tag)
    {
        var writer = new Writer(pretty: false, SnbtSyntax.Modern, strict: false, output: null);
        writer.Append(tag, 0);
        return writer.Text.ToString();
    }

    /// <summary>Formats into <see cref="Text"/>, and hands it to <c>output</c>, when there is one, each time a container's element ends past <see cref="FlushAt"/> characters.</summary>
    private sealed class Writer(bool pretty, SnbtSyntax syntax, bool strict, TextWriter? output)
    {
        private const int FlushAt = 8 * 1024;

        // The names and indices from the root to the value being written, for the message of a refusal.
        private readonly List<object> _path = [];

        public StringBuilder Text { get; } = new();

        private static CultureInfo Culture => CultureInfo.InvariantCulture;

        private bool Pretty => pretty;

        private bool Strict => strict;

        private bool Legacy => syntax == SnbtSyntax.Legacy;

        public void Append(NbtTag tag, int depth)
        {
            // A tree built by hand can nest deeper than any reader allows: refuse it rather than overflow the stack.
            if (!StackRoom.Enough(depth))
            {
                throw new ArgumentException("The tree nests too deeply to write on this thread's stack.", nameof(tag));
            }

            switch (tag)
            {
                case NbtByte value:
                    Text.Append(value.Value.ToString(Culture)).Append('b');
                    break;
                case NbtShort value:
                    Text.Append(value.Value.ToString(Culture)).Append('s');
                    break;
                case NbtInt value:
                    Text.Append(value.Value.ToString(Culture));
                    break;
                case NbtLong value:
                    Text.Append(value.Value.ToString(Culture)).Append('L');
                    break;
                case NbtFloat value:
                    AppendReal(value.Value, float.IsFinite(value.Value) ? value.Value.ToString("R", Culture) : null, "1e39", 'f');
                    break;
                case NbtDouble value:
                    AppendReal(value.Value, double.IsFinite(value.Value) ? value.Value.ToString("R", Culture) : null, "1e309", 'd');
                    break;
                case NbtString value:
                    AppendQuoted(value.Value);
                    break;
                case NbtByteArray value:
                    AppendArray("B;", value.Value.Length, i => ((sbyte)value.Value[i]).ToString(Culture) + "b");
                    break;
                case NbtIntArray value:
                    AppendArray("I;", value.Value.Length, i => value.Value[i].ToString(Culture));
                    break;
                case NbtLongArray value:
                    AppendArray("L;", value.Value.Length, i => value.Value[i].ToString(Culture) + "L");
                    break;
                case NbtList list:
                    if (Legacy && Strict && list.IsMixed)
                    {
                        throw Unwritable("a list of mixed types, which Minecraft reads only from 1.21.5 on");
                    }

                    AppendContainer('[', ']', list.Count, depth, (i, inner) =>
                    {
                        _path.Add(i);
                        Append(list[i], inner);
                        _path.RemoveAt(_path.Count - 1);
                    });
                    break;
                case NbtCompound compound:
                    var entries = compound.ToArray();
                    AppendContainer('{', '}', entries.Length, depth, (i, inner) =>
                    {
                        _path.Add(entries[i].Key);
                        AppendName(entries[i].Key);
                        Text.Append(Pretty ? ": " : ":");
                        Append(entries[i].Value, inner);
                        _path.RemoveAt(_path.Count - 1);
                    });
                    break;
            }
        }

        /// <summary>Hands what is formatted so far to the output.</summary>
        public void Flush()
        {
            foreach (var chunk in Text.GetChunks())
            {
                output!.Write(chunk.Span);
            }

            Text.Clear();
        }

        /// <summary>Appends a float or double: finite as its shortest round-trip digits, an infinity as a literal past the type's range.</summary>
        private void AppendReal(double value, string? digits, string overflow, char suffix)
        {
            if (digits is not null)
            {
                Text.Append(digits);
                if (!digits.Contains('.', StringComparison.Ordinal) && !digits.Contains('E', StringComparison.Ordinal))
                {
                    Text.Append(".0");
                }
            }
            else if (double.IsNaN(value) || (!Legacy && Strict))
            {
                // 1.21.4 read a literal past the range as infinity; 1.21.5 refuses it; neither has a NaN literal.
                if (Strict)
                {
                    throw Unwritable(double.IsNaN(value)
                        ? "NaN, which no SNBT spells (Minecraft reads NaN as a string)"
                        : "an infinity, which the 1.21.5 grammar refuses (the 1.21.4 grammar reads one as a literal past the type's range)");
                }

                Text.Append(double.IsNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
            }
            else
            {
                Text.Append(value > 0 ? overflow : "-" + overflow);
            }

            Text.Append(suffix);
        }

        private void AppendArray(string prefix, int count, Func<int, string> element)
        {
            Text.Append('[').Append(prefix);
            for (var i = 0; i < count; i++)
            {
                Text.Append(i == 0 ? string.Empty : ",").Append(element(i));
            }

            Text.Append(']');
        }

        private void AppendContainer(char open, char close, int count, int depth, Action<int, int> element)
        {
            Text.Append(open);
            if (count == 0)
            {
                Text.Append(close);
                return;
            }

            for (var i = 0; i < count; i++)
            {
                if (i > 0)
                {
                    Text.Append(',');
                }

                if (Pretty)
                {
                    Text.Append('\n').Append(' ', (depth + 1) * 4);
                }

                element(i, depth + 1);
                if (output is not null && Text.Length >= FlushAt)
                {
                    Flush();
                }
            }

            if (Pretty)
            {
                Text.Append('\n').Append(' ', depth * 4);
            }

            Text.Append(close);
        }

        private void AppendName(string name)
        {
            if (name.Length == 0 && Strict)
            {
                throw Unwritable("an empty name, which Minecraft refuses (read the file with UnwrapHeterogeneousLists if it holds 1.21.5's mixed lists)");
            }

            if (name.Length > 0 && name.AsSpan().IndexOfAnyExcept(SnbtCharacters.Unquoted) < 0)
            {
                Text.Append(name);
                return;
            }

            AppendQuoted(name);
        }

        private void AppendQuoted(string value)
        {
            var quote = value.Contains('"', StringComparison.Ordinal) && !value.Contains('\'', StringComparison.Ordinal) ? '\'' : '"';
            Text.Append(quote);
            for (var i = 0; i < value.Length; i++)
            {
                var c = value[i];
                if (c == '\\' || c == quote)
                {
                    Text.Append('\\').Append(c);
                }
                else if (Legacy)
                {
                    // Before 1.21.5 nothing else is escaped, and nothing else needs to be: control characters stay as they are.
                    if (char.IsSurrogate(c) && !char.IsSurrogatePair(value, i) && (i == 0 || !char.IsSurrogatePair(value, i - 1)) && Strict)
                    {
                        throw Unwritable(string.Create(CultureInfo.InvariantCulture, $"an unpaired surrogate (U+{(int)c:X4}), which the 1.21.4 grammar has no escape for and UTF-8 cannot carry"));
                    }

                    Text.Append(c);
                }
                else if (c < ' ')
                {
                    // The escapes Minecraft's own printer uses.
                    Text.Append(c switch
                    {
                        '\b' => @"\b",
                        '\t' => @"\t",
                        '\n' => @"\n",
                        '\f' => @"\f",
                        '\r' => @"\r",
                        _ => string.Create(CultureInfo.InvariantCulture, $"\\x{(int)c:X2}"),
                    });
                }
                else if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
                {
                    Text.Append(c).Append(value[++i]);
                }
                else if (char.IsSurrogate(c))
                {
                    // An unpaired surrogate has no UTF-8 form: its escape carries it to a game that stores it.
                    Text.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:X4}");
                }
                else
                {
                    Text.Append(c);
                }
            }

            Text.Append(quote);
        }

        private ArgumentException Unwritable(string what)
        {
            var path = new ErrorPath();
            for (var i = _path.Count - 1; i >= 0; i--)
            {
                if (_path[i] is int index)
                {
                    path.Prepend(index);
                }
                else
                {
                    path.Prepend((string)_path[i]);
                }
            }

            return new(path.IsEmpty ? $"The tree's root is {what}." : $"The tree holds {what} at {path}.");
        }
    }
}
