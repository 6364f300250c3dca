package probe.shapes;

import java.util.ArrayList;
import java.util.List;

/** A shape on the plane that knows its own area. */
interface Shape {
    /** The area enclosed by the shape's outline. */
    double area();
}

/** Units a length can be measured in. */
enum Unit {
    METRE, FOOT;

    /** How many metres one of this unit is. */
    double inMetres() {
        return this == METRE ? 1.0 : 0.3048;
    }
}

/** A rectangle given by its two side lengths. */
record Rectangle(double width, double height) implements Shape {
    public double area() {
        return width * height;
    }
}

/**
 * A circle given by its radius.
 *
 * @see Rectangle
 */
public class Circle implements Shape {
    private final double radius;

    /** Make a circle; a negative radius is refused. */
    public Circle(double radius) {
        if (radius < 0) {
            throw new IllegalArgumentException("negative radius");
        }
        this.radius = radius;
    }

    @Override
    public double area() {
        return Math.PI * radius * radius;
    }

    /**
     * Add up the areas of all {@code shapes}, skipping none.
     *
     * @param shapes the shapes to add up
     * @return the total area
     */
    public static double totalArea(List<Shape> shapes) {
        double sum = 0;
        for (Shape s : shapes) {
            sum += s.area();
        }
        List<Double> seen = new ArrayList<>();
        seen.add(sum);
        return scaled(sum, Unit.METRE);
    }

    static double scaled(double value, Unit unit) {
        double factor = unit.inMetres();
        return value * factor * factor;
    }
}
