package org.viadsm.examples.runtime;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * C {@code printf} formatting for the conversions the SPLASH programs use ({@code d i u ld lu x c s f F e E g G %}
 * with flags {@code - + space 0 #}, width and precision, {@code *} not supported), so ports print the same
 * characters as the C originals.
 * <p>
 * Java's {@link String#format} differs from glibc where it matters: glibc rounds the exact binary value of a
 * double, half to even, where Java rounds its shortest decimal form half up (13.5625 prints as 13.562 in C, 13.563
 * in Java), and Java's {@code %g} never switches to plain notation the way C's does. This class rounds the exact
 * binary value half to even, as glibc does.
 */
public final class CFormat
{
    private CFormat()
    {
    }

    /**
     * Formats like C's {@code sprintf(buf, format, args...)}.
     *
     * @param format a C format string.
     * @param args   the arguments: {@link Number}s for numeric conversions, anything for {@code %s}.
     * @return the formatted text.
     * @throws IllegalArgumentException on a conversion this class does not support, or a missing argument.
     */
    public static String format(final String format, final Object... args)
    {
        final StringBuilder out = new StringBuilder(format.length() + 16);
        int argIndex = 0;
        int i = 0;
        final int n = format.length();
        while (i < n)
        {
            final char c = format.charAt(i++);
            if ('%' != c)
            {
                out.append(c);
                continue;
            }
            if (i < n && '%' == format.charAt(i))
            {
                out.append('%');
                i++;
                continue;
            }
            final Spec spec = new Spec();
            i = spec.parse(format, i);
            if (argIndex >= args.length)
            {
                throw new IllegalArgumentException("missing argument " + argIndex + " for format '" + format + "'");
            }
            spec.append(out, args[argIndex++]);
        }
        return out.toString();
    }

    /**
     * C's {@code %.Nf}: fixed notation with {@code decimals} digits after the point.
     *
     * @param value    the value.
     * @param decimals digits after the point.
     * @return the text.
     */
    public static String fixed(final double value, final int decimals)
    {
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            return nonFinite(value, false);
        }
        final BigDecimal rounded = new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN);
        String text = rounded.abs().toPlainString();
        if (isNegative(value))
        {
            text = "-" + text;
        }
        return text;
    }

    /**
     * C's {@code %.Ne}: scientific notation with {@code decimals} digits after the point and an exponent of at
     * least two digits.
     *
     * @param value    the value.
     * @param decimals digits after the point.
     * @return the text.
     */
    public static String scientific(final double value, final int decimals)
    {
        return scientific(value, decimals, false, false);
    }

    private static String scientific(final double value, final int decimals, final boolean upper, final boolean alt)
    {
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            return nonFinite(value, upper);
        }
        final String sign = isNegative(value) ? "-" : "";
        final BigDecimal abs = new BigDecimal(value).abs();
        String digits;
        final int exponent;
        if (0 == abs.signum())
        {
            digits = "0".repeat(decimals + 1);
            exponent = 0;
        }
        else
        {
            final BigDecimal rounded = abs.round(new java.math.MathContext(decimals + 1, RoundingMode.HALF_EVEN));
            digits = rounded.unscaledValue().toString();
            exponent = digits.length() - 1 - rounded.scale();
            if (digits.length() < decimals + 1)
            {
                digits = digits + "0".repeat(decimals + 1 - digits.length());
            }
            else if (digits.length() > decimals + 1)
            {
                digits = digits.substring(0, decimals + 1);
            }
        }
        final StringBuilder sb = new StringBuilder(sign).append(digits.charAt(0));
        if (decimals > 0 || alt)
        {
            sb.append('.');
        }
        sb.append(digits, 1, digits.length());
        sb.append(upper ? 'E' : 'e').append(exponent < 0 ? '-' : '+');
        final int absExponent = Math.abs(exponent);
        if (absExponent < 10)
        {
            sb.append('0');
        }
        return sb.append(absExponent).toString();
    }

    private static String general(final double value, final int precision, final boolean upper, final boolean alt)
    {
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            return nonFinite(value, upper);
        }
        final int p = 0 == precision ? 1 : precision;
        int exponent = 0;
        if (0.0 != value)
        {
            final String e = scientific(value, p - 1, false, false);
            exponent = Integer.parseInt(e.substring(e.indexOf('e') + 1));
        }
        String text;
        if (p > exponent && exponent >= -4)
        {
            text = fixed(value, p - 1 - exponent);
            if (alt && text.indexOf('.') < 0)
            {
                text = text + ".";
            }
            return alt ? text : stripZeros(text);
        }
        text = scientific(value, p - 1, upper, alt);
        if (alt)
        {
            return text;
        }
        final int at = text.indexOf(upper ? 'E' : 'e');
        return stripZeros(text.substring(0, at)) + text.substring(at);
    }

    private static String stripZeros(final String text)
    {
        if (text.indexOf('.') < 0)
        {
            return text;
        }
        int end = text.length();
        while ('0' == text.charAt(end - 1))
        {
            end--;
        }
        if ('.' == text.charAt(end - 1))
        {
            end--;
        }
        return text.substring(0, end);
    }

    private static boolean isNegative(final double value)
    {
        return value < 0.0 || (0.0 == value && 1.0 / value < 0.0);
    }

    private static String nonFinite(final double value, final boolean upper)
    {
        final String text = Double.isNaN(value) ? "nan" : (value < 0 ? "-inf" : "inf");
        return upper ? text.toUpperCase(Locale.ROOT) : text;
    }

    private static final class Spec
    {
        boolean leftAlign;
        boolean plus;
        boolean space;
        boolean zeroPad;
        boolean alt;
        int width;
        int precision = -1;
        char conversion;

        int parse(final String format, final int start)
        {
            int i = start;
            for (; i < format.length(); i++)
            {
                final char c = format.charAt(i);
                if ('-' == c)
                {
                    leftAlign = true;
                }
                else if ('+' == c)
                {
                    plus = true;
                }
                else if (' ' == c)
                {
                    space = true;
                }
                else if ('0' == c)
                {
                    zeroPad = true;
                }
                else if ('#' == c)
                {
                    alt = true;
                }
                else
                {
                    break;
                }
            }
            while (i < format.length() && Character.isDigit(format.charAt(i)))
            {
                width = width * 10 + (format.charAt(i++) - '0');
            }
            if (i < format.length() && '.' == format.charAt(i))
            {
                i++;
                precision = 0;
                while (i < format.length() && Character.isDigit(format.charAt(i)))
                {
                    precision = precision * 10 + (format.charAt(i++) - '0');
                }
            }
            while (i < format.length() && "lhqjzL".indexOf(format.charAt(i)) >= 0)
            {
                i++;
            }
            if (i >= format.length())
            {
                throw new IllegalArgumentException("incomplete conversion at the end of '" + format + "'");
            }
            conversion = format.charAt(i++);
            return i;
        }

        void append(final StringBuilder out, final Object arg)
        {
            String body;
            boolean numeric = true;
            switch (conversion)
            {
                case 'd':
                case 'i':
                case 'u':
                    body = Long.toString(((Number)arg).longValue());
                    if (precision >= 0)
                    {
                        body = zeroExtend(body, precision);
                    }
                    break;
                case 'x':
                case 'X':
                    body = Long.toHexString(((Number)arg).longValue());
                    body = 'X' == conversion ? body.toUpperCase(Locale.ROOT) : body;
                    break;
                case 'f':
                case 'F':
                    body = fixed(((Number)arg).doubleValue(), precision < 0 ? 6 : precision);
                    if (alt && 0 == precision)
                    {
                        body = body + ".";
                    }
                    break;
                case 'e':
                case 'E':
                    body = scientific(((Number)arg).doubleValue(), precision < 0 ? 6 : precision, 'E' == conversion,
                        alt);
                    break;
                case 'g':
                case 'G':
                    body = general(((Number)arg).doubleValue(), precision < 0 ? 6 : precision, 'G' == conversion, alt);
                    break;
                case 'c':
                    numeric = false;
                    body = arg instanceof Number ? String.valueOf((char)((Number)arg).intValue()) : arg.toString();
                    break;
                case 's':
                    numeric = false;
                    body = String.valueOf(arg);
                    if (precision >= 0 && body.length() > precision)
                    {
                        body = body.substring(0, precision);
                    }
                    break;
                default:
                    throw new IllegalArgumentException("unsupported conversion %" + conversion);
            }
            if (numeric && !body.startsWith("-"))
            {
                if (plus)
                {
                    body = "+" + body;
                }
                else if (space)
                {
                    body = " " + body;
                }
            }
            pad(out, body, numeric);
        }

        private void pad(final StringBuilder out, final String body, final boolean numeric)
        {
            final int padding = width - body.length();
            if (padding <= 0)
            {
                out.append(body);
            }
            else if (leftAlign)
            {
                out.append(body).append(" ".repeat(padding));
            }
            else if (zeroPad && numeric && (precision < 0 || "fFeEgG".indexOf(conversion) >= 0) &&
                Character.isDigit(body.charAt(body.length() - 1)))
            {
                final int signLength = body.startsWith("-") || body.startsWith("+") || body.startsWith(" ") ? 1 : 0;
                out.append(body, 0, signLength).append("0".repeat(padding)).append(body, signLength, body.length());
            }
            else
            {
                out.append(" ".repeat(padding)).append(body);
            }
        }

        private static String zeroExtend(final String digits, final int precision)
        {
            final boolean negative = digits.startsWith("-");
            final String abs = negative ? digits.substring(1) : digits;
            final String extended = abs.length() < precision ? "0".repeat(precision - abs.length()) + abs : abs;
            return negative ? "-" + extended : extended;
        }
    }
}
