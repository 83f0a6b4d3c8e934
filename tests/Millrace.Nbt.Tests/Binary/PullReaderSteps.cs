using System.Text;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Tests.Binary;

/// <summary>
/// A pull reader's walk over an input, written out step by step: <see cref="NbtPullReader.Read"/>'s tokens, or (by
/// container) those <see cref="NbtPullReader.ReadMember"/> and <see cref="NbtPullReader.ReadElement"/> give inside
/// compounds and lists, which must be the same. Shared by the tests and the fuzz target.
/// </summary>
internal static class PullReaderSteps
{
    /// <summary>Every step's token, type, depth, offset, name and string value, then <c>end</c> or the error and its offset.</summary>
    /// <exception cref="InvalidOperationException">ReadMember or ReadElement returned other than <see langword="false"/> exactly on its container's end.</exception>
    public static string Walk(byte[] input, NbtReaderOptions options, bool byContainer)
    {
        var steps = new StringBuilder();
        var inList = new Stack<bool>();
        try
        {
            var reader = new NbtPullReader(input, options);
            while (true)
            {
                // Either of the two returns false exactly on its container's end, a step like any other here.
                if (byContainer && inList.Count > 0)
                {
                    var more = inList.Peek() ? reader.ReadElement() : reader.ReadMember();
                    if (more == (reader.Token == (inList.Peek() ? NbtToken.EndList : NbtToken.EndCompound)))
                    {
                        throw new InvalidOperationException($"ReadMember or ReadElement returned {more} on {reader.Token} at {reader.BytesConsumed}.");
                    }
                }
                else if (!reader.Read())
                {
                    return steps.Append("end").ToString();
                }

                if (reader.Token is NbtToken.StartCompound or NbtToken.StartList)
                {
                    inList.Push(reader.Token == NbtToken.StartList);
                }
                else if (reader.Token is NbtToken.EndCompound or NbtToken.EndList)
                {
                    inList.Pop();
                }

                steps.Append($"{reader.Token} {reader.TagType} {reader.Depth} {reader.BytesConsumed} {reader.HasName} {reader.GetName()}");
                steps.Append(reader.Token == NbtToken.Value && reader.TagType == NbtTagType.String ? " " + reader.GetString() + "\n" : "\n");
            }
        }
        catch (NbtFormatException exception)
        {
            return steps.Append($"error {exception.Code} at {exception.ByteOffset}").ToString();
        }
    }
}
