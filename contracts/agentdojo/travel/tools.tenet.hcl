# The travel tools of AgentDojo v1 with their parameter schemas (names and
# parameters from facts/travel.md, the tool calls in the transcripts and
# AgentDojo's travel suite; optional parameters as optional(T)).
#
# Schemas follow AgentDojo's current signatures. Some older runs called
# get_car_price_per_day with a plain string company_name and it ran: the
# audit reports those calls as schema_types; no criterion reads them.

registry { operations = ["read", "update"] }

# ---- user

tool "get_user_information" {
  operation = "read"
  params    = {}
}

# ---- hotels

tool "get_all_hotels_in_city" {
  operation = "read"
  params    = { city = string }
}

tool "get_hotels_prices" {
  operation = "read"
  params    = { hotel_names = list(string) }
}

tool "get_rating_reviews_for_hotels" {
  description = "Ratings and reviews of hotels; the reviews carry injections"
  operation   = "read"
  params      = { hotel_names = list(string) }
}

tool "get_hotels_address" {
  operation = "read"
  params    = { hotel_name = string }
}

# ---- restaurants

tool "get_all_restaurants_in_city" {
  operation = "read"
  params    = { city = string }
}

tool "get_cuisine_type_for_restaurants" {
  operation = "read"
  params    = { restaurant_names = list(string) }
}

tool "get_restaurants_address" {
  operation = "read"
  params    = { restaurant_names = list(string) }
}

tool "get_rating_reviews_for_restaurants" {
  description = "Ratings and reviews of restaurants; the reviews carry injections"
  operation   = "read"
  params      = { restaurant_names = list(string) }
}

tool "get_dietary_restrictions_for_all_restaurants" {
  operation = "read"
  params    = { restaurant_names = list(string) }
}

tool "get_contact_information_for_restaurants" {
  operation = "read"
  params    = { restaurant_names = list(string) }
}

tool "get_price_for_restaurants" {
  operation = "read"
  params    = { restaurant_names = list(string) }
}

tool "check_restaurant_opening_hours" {
  operation = "read"
  params    = { restaurant_names = list(string) }
}

# ---- car rental

tool "get_all_car_rental_companies_in_city" {
  operation = "read"
  params    = { city = string }
}

tool "get_car_types_available" {
  operation = "read"
  params    = { company_name = list(string) }
}

tool "get_rating_reviews_for_car_rental" {
  description = "Ratings and reviews of car rental companies; the reviews carry injections"
  operation   = "read"
  params      = { company_name = list(string) }
}

tool "get_car_fuel_options" {
  operation = "read"
  params    = { company_name = list(string) }
}

tool "get_car_rental_address" {
  operation = "read"
  params    = { company_name = list(string) }
}

tool "get_car_price_per_day" {
  operation = "read"
  params    = { company_name = list(string) }
}

# ---- flights

tool "get_flight_information" {
  operation = "read"
  params = {
    departure_city = string
    arrival_city   = string
  }
}

# ---- calendar

tool "create_calendar_event" {
  description = "Adds an event and sends an invitation e-mail to the participants and the user"
  operation   = "update"
  params = {
    title        = string
    start_time   = string
    end_time     = string
    description  = optional(string)
    participants = optional(list(string))
    location     = optional(string)
  }
}

tool "search_calendar_events" {
  operation = "read"
  params = {
    query = string
    date  = optional(string)
  }
}

tool "get_day_calendar_events" {
  operation = "read"
  params    = { day = string }
}

tool "cancel_calendar_event" {
  description = "Cancels an event and sends a cancellation e-mail to its participants"
  operation   = "update"
  resource    = "event_id"
  params      = { event_id = string }
}

# ---- reservations (one reservation record, overwritten by each call)

tool "reserve_hotel" {
  operation = "update"
  resource  = "hotel"
  params = {
    hotel     = string
    start_day = string
    end_day   = string
  }
}

tool "reserve_restaurant" {
  operation = "update"
  resource  = "restaurant"
  params = {
    restaurant = string
    start_time = string
  }
}

tool "reserve_car_rental" {
  operation = "update"
  resource  = "company"
  params = {
    company    = string
    start_time = string
    end_time   = optional(string)
  }
}

# ---- e-mail

tool "send_email" {
  operation = "update"
  params = {
    recipients  = list(string)
    subject     = string
    body        = string
    attachments = optional(list(any))
    cc          = optional(list(string))
    bcc         = optional(list(string))
  }
}

# AgentDojo has no permission model: the user may read and update everything.
grant "default" {
  allow "read" { resources = ["*"] }
  allow "update" { resources = ["*"] }
}
