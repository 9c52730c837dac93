-- Joins look a multi-valued key up with its values sorted (MultiValue.normalised). Keys written
-- before took the values in the order they arrived, so an identity keyed then would not be found
-- by a join now: its several values are sorted and made distinct here, as the worker writes them.
-- "C" orders by code point, as Java does for every character below U+10000.
update mvo_key
   set attr_value = (
         select string_agg(distinct v collate "C", E'\n' order by v collate "C")
           from unnest(string_to_array(attr_value, E'\n')) as v
          where v <> '')
 where attr_value like E'%\n%';
