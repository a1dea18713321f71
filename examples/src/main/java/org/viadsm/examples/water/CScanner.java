package org.viadsm.examples.water;

/**
 * Reads numbers from text the way C's {@code scanf("%lf")} and {@code scanf("%ld")} do: each conversion skips
 * white space, then takes the longest prefix that forms a number and leaves the rest for the next conversion, so
 * {@code "512abc"} reads 512 and then fails on {@code abc}. Where C would stop silently (a short or malformed input)
 * this scanner throws, naming the source, the line and what it expected.
 * <p>
 * <b>Note:</b> not threadsafe.
 */
final class CScanner
{
    private final String text;
    private final String source;
    private int position;
    private int line = 1;

    CScanner(final String text, final String source)
    {
        this.text = text;
        this.source = source;
    }

    /**
     * Line of the next unread character, counted from 1.
     *
     * @return the line.
     */
    int line()
    {
        return line;
    }

    /**
     * {@code %lf}: an optional sign, then decimal digits with an optional point and exponent, {@code inf},
     * {@code infinity} or {@code nan} (any case).
     *
     * @param what what the value is, for the error message.
     * @return the value, rounded as {@code strtod} rounds it (correctly).
     * @throws IllegalArgumentException if no number starts here.
     */
    double scanDouble(final String what)
    {
        skipSpace();
        final int start = position;
        int i = position;
        if (i < text.length() && ('+' == text.charAt(i) || '-' == text.charAt(i)))
        {
            i++;
        }
        final int word = matchWord(i);
        if (word > i)
        {
            position = word;
            final boolean negative = '-' == text.charAt(start);
            final char first = Character.toLowerCase(text.charAt(i));
            if ('n' == first)
            {
                return Double.NaN;
            }
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        final int digitsStart = i;
        i = skipDigits(i);
        int digits = i - digitsStart;
        if (i < text.length() && '.' == text.charAt(i))
        {
            final int fractionStart = i + 1;
            i = skipDigits(fractionStart);
            digits += i - fractionStart;
        }
        if (0 == digits)
        {
            throw failure(what, "a number");
        }
        if (i < text.length() && ('e' == text.charAt(i) || 'E' == text.charAt(i)))
        {
            int j = i + 1;
            if (j < text.length() && ('+' == text.charAt(j) || '-' == text.charAt(j)))
            {
                j++;
            }
            final int exponentEnd = skipDigits(j);
            if (exponentEnd == j)
            {
                // glibc's scanf has consumed the 'e' and cannot take it back: the conversion fails.
                position = start;
                throw failure(what, "a number");
            }
            i = exponentEnd;
        }
        position = i;
        return Double.parseDouble(text.substring(start, i));
    }

    /**
     * {@code %ld}: an optional sign and decimal digits.
     *
     * @param what what the value is, for the error message.
     * @return the value.
     * @throws IllegalArgumentException if no integer starts here or it does not fit in a long.
     */
    long scanLong(final String what)
    {
        skipSpace();
        final int start = position;
        int i = position;
        if (i < text.length() && ('+' == text.charAt(i) || '-' == text.charAt(i)))
        {
            i++;
        }
        final int end = skipDigits(i);
        if (end == i)
        {
            throw failure(what, "an integer");
        }
        try
        {
            final long value = Long.parseLong(text.substring(start, end));
            position = end;
            return value;
        }
        catch (final NumberFormatException ex)
        {
            throw failure(what, "an integer that fits in 64 bits");
        }
    }

    private int matchWord(final int from)
    {
        final String[] words = {"infinity", "inf", "nan"};
        for (final String word : words)
        {
            if (text.regionMatches(true, from, word, 0, word.length()))
            {
                return from + word.length();
            }
        }
        return from;
    }

    private int skipDigits(final int from)
    {
        int i = from;
        while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9')
        {
            i++;
        }
        return i;
    }

    private void skipSpace()
    {
        while (position < text.length())
        {
            final char c = text.charAt(position);
            if ('\n' == c)
            {
                line++;
            }
            else if (' ' != c && '\t' != c && '\r' != c && '\f' != c && 0x0B != c)
            {
                return;
            }
            position++;
        }
    }

    private IllegalArgumentException failure(final String what, final String expected)
    {
        if (position >= text.length())
        {
            final int lines = text.isEmpty() || '\n' == text.charAt(text.length() - 1) ? line - 1 : line;
            return new IllegalArgumentException(source + ": expected " + expected + " for " + what +
                ", found the end of the input after line " + lines);
        }
        int end = position;
        while (end < text.length() && end - position < 20 && !Character.isWhitespace(text.charAt(end)))
        {
            end++;
        }
        return new IllegalArgumentException(source + " line " + line + ": expected " + expected + " for " + what +
            ", found '" + text.substring(position, end) + "'");
    }
}
